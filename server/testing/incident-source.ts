/**
 * An incident source for tests: a scenario's objects at a virtual time (from the simulator's own controllers), its
 * assessed health and a small series, plus optional extra objects (Secrets, pull secrets) referenced by a finding.
 */
import type { ClusterHealthDto, ClusterSeriesDto, FindingDto, SamplePointDto } from '@/lib/api/dto';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { Snapshot } from '@/lib/health/types';
import { assess, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import type { ScenarioName } from '@/server/simulator/types';
import type { IncidentSource } from '@/server/incidents/incident-service';

/**
 * A frozen source: what a ClusterEngine would answer at one moment. `sampleEveryMs` adds a status-write-rejection
 * sample at that interval from the scenario's start, as an engine sampling the whole story would hold.
 */
export function scenarioSource(
  name: ScenarioName,
  atMs: number,
  extra: {
    objects?: Partial<Record<ResourceName, KubeObject[]>>;
    findings?: FindingDto[];
    sampleEveryMs?: number;
  } = {},
): IncidentSource {
  const { snapshot, now } = scenarioSnapshot(name, atMs);
  for (const [resource, objects] of Object.entries(extra.objects ?? {})) {
    snapshot.objects[resource as ResourceName] = [
      ...(snapshot.objects[resource as ResourceName] ?? []),
      ...(objects ?? []),
    ];
  }
  const assessed = assess(snapshot, now, name);
  const health: ClusterHealthDto = { ...assessed, findings: [...assessed.findings, ...(extra.findings ?? [])] };
  const series: ClusterSeriesDto = {
    clusterId: name,
    now,
    samples: {
      'status-write-rejection': extra.sampleEveryMs
        ? storySamples(now - atMs, now, extra.sampleEveryMs)
        : [
            { t: now - 60_000, values: { rejectedValues: 0 } },
            { t: now, values: { rejectedValues: 4 } },
          ],
    },
    transitions: [],
  };
  return {
    id: name,
    name,
    health: () => health,
    series: (from?: number, to?: number) => ({
      ...series,
      samples: Object.fromEntries(
        Object.entries(series.samples).map(([k, pts]) => [
          k,
          pts.filter((p) => (from === undefined || p.t >= from) && (to === undefined || p.t <= to)),
        ]),
      ),
    }),
    snapshot: (): Snapshot => snapshot,
  };
}

function storySamples(start: number, now: number, every: number): SamplePointDto[] {
  const points: SamplePointDto[] = [];
  for (let t = start; t <= now; t += every) {
    points.push({ t, values: { rejectedValues: (t - start) % (7 * every) === 0 ? 4 : 0 } });
  }
  return points;
}
