import 'server-only';
import type { ClusterHealthDto, ClusterSeriesDto } from '@/lib/api/dto';
import type { CreatedIncidentDto, IncidentDto } from '@/lib/api/incident-dto';
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { Snapshot } from '@/lib/health/types';
import { resourceForKind } from '@/lib/k8s/resources';
import { asString, dig, findObject } from '@/lib/health/objects';
import { REDACTION_RULES, Redactor } from '@/lib/incidents/redact';
import { clusterIdentifiers } from '@/lib/incidents/cluster-identifiers';
import type { IncidentRepository } from './incident-repository';
import { incidentLimits, type IncidentLimits } from './incident-limits';
import { newIncidentId } from './incident-id';

/** What an incident is frozen from; a `ClusterEngine` is one. */
export interface IncidentSource {
  id: string;
  name: string;
  health(): ClusterHealthDto;
  series(from?: number, to?: number): ClusterSeriesDto;
  snapshot(): Snapshot;
}

/** Options of {@link createIncident}. */
export interface CreateIncidentOptions {
  from?: number;
  to?: number;
  createdBy?: string | null;
  /** Wall clock for `createdAt` (tests). */
  now?: () => Date;
  /** Rate limit, quota and size limit; default the process-wide {@link incidentLimits}, `null` none (tests). */
  limits?: IncidentLimits | null;
}

const MAX_OBJECTS = 200;

function refsOf(health: ClusterHealthDto): ObjectRef[] {
  const refs = health.findings.flatMap((f) => [f.subject, ...f.evidence.flatMap((e) => (e.ref ? [e.ref] : []))]);
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The evidence objects behind the findings, found in the snapshot, without managedFields. */
function evidenceObjects(snapshot: Snapshot, health: ClusterHealthDto): KubeObject[] {
  const out: KubeObject[] = [];
  const all = Object.values(snapshot.objects).flat();
  for (const ref of refsOf(health)) {
    const resource = resourceForKind(ref.kind);
    const object = resource
      ? findObject(snapshot, resource, ref.name, ref.namespace)
      : all.find((o) => o?.kind === ref.kind && o.metadata.name === ref.name && o.metadata.namespace === ref.namespace);
    if (!object) continue;
    const metadata = { ...object.metadata };
    delete metadata.managedFields;
    out.push({ ...object, metadata });
    if (out.length >= MAX_OBJECTS) break;
  }
  return out;
}

function seriesStart(series: ClusterSeriesDto): number | undefined {
  const times = [
    ...Object.values(series.samples).flatMap((points) => points.map((p) => p.t)),
    ...series.transitions.map((t) => Date.parse(t.at)).filter((t) => Number.isFinite(t)),
  ];
  return times.length ? Math.min(...times) : undefined;
}

/**
 * Freezes a cluster into an incident: findings and health, chart series of the window, evidence objects, identity
 * and creation time, all redacted by one {@link Redactor} (its report attached), then stored durably. Every creation
 * (cluster view or must-gather) passes the creator's limits first: throws IncidentLimitError when over one.
 */
export async function createIncident(source: IncidentSource, repository: IncidentRepository, options: CreateIncidentOptions = {}): Promise<CreatedIncidentDto> {
  const limits = options.limits === undefined ? incidentLimits() : options.limits;
  const creator = options.createdBy ?? null;
  limits?.admit(creator);
  const health = source.health();
  const series = source.series(options.from, options.to);
  const snapshot = source.snapshot();
  const clusterVersion = findObject(snapshot, 'clusterversions', 'version');
  const redactor = new Redactor(clusterIdentifiers(snapshot));
  const id = newIncidentId();
  const capturedAt = series.now;
  const clusterID = asString(dig(clusterVersion, 'spec', 'clusterID'));
  const redactedHealth = redactor.redact(health, 'health') as ClusterHealthDto;
  const redactedSeries = redactor.redact(series, 'series') as ClusterSeriesDto;
  const incident: IncidentDto = {
    id,
    createdAt: (options.now?.() ?? new Date()).toISOString(),
    createdBy: creator,
    cluster: {
      // The fleet's own key for the cluster stays as it is: readers' access is checked against that cluster.
      id: source.id,
      name: redactor.text(source.name, 'cluster.name'),
      clusterID: clusterID ? redactor.text(clusterID, 'cluster.clusterID') : null,
      version: health.cluster.version,
      desiredVersion: health.cluster.desiredVersion,
    },
    capturedAt,
    window: { from: options.from ?? seriesStart(series) ?? capturedAt, to: options.to ?? capturedAt },
    health: { ...redactedHealth, cluster: { ...redactedHealth.cluster, id: source.id } },
    series: { ...redactedSeries, clusterId: source.id },
    objects: evidenceObjects(snapshot, health).map((o, i) => redactor.redact(o, `objects[${i}]`) as Record<string, unknown>),
    redaction: { rules: [...REDACTION_RULES], entries: redactor.entries },
  };
  await limits?.checkStore(creator, Buffer.byteLength(JSON.stringify(incident)), repository);
  await repository.create(incident);
  return { id, url: `/incidents/${id}` };
}
