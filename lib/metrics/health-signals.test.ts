import { describe, expect, it } from 'vitest';
import type { ClusterHealthDto, FindingDto } from '@/lib/api/dto';
import { RESOURCE_NAMES } from '@/lib/k8s/resources';
import { makeSnapshot } from '@/lib/health/testing/builders';
import type { Snapshot } from '@/lib/health/types';
import { updateStateOfHealth } from '@/lib/cluster/update-state';
import { assess, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import { createSimulatedCluster, DEFAULT_START_TIME, runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import {
  UIP_FROM_VERSION,
  UIP_TO_VERSION,
  UIP_UPDATE_REQUESTED_AT_MS,
  UIP_WORKERS_DONE_BY_MS,
} from '@/server/simulator/scenarios/update-in-progress';
import { ROLLBACK_AFTER_WINDOW } from '@/server/simulator/scenarios/cross-minor-rollback';
import type { ScenarioName } from '@/server/simulator/types';
import { findingKindsOf, followUpdate, updateSignalsOf, type FinishedUpdate, type UpdateWatch } from './health-signals';

const MINUTE = 60_000;

/** Looks at a story every `stepMs` of its time, as the engine would, yielding the health and the cluster's clock. */
function* walk(
  name: ScenarioName,
  untilMs: number,
  stepMs: number,
): Generator<{ health: ClusterHealthDto; now: number }> {
  const cluster = createSimulatedCluster();
  runScenario(cluster, SCENARIOS[name]!);
  for (let at = 0; at <= untilMs; at += stepMs) {
    while (cluster.clock.now() < DEFAULT_START_TIME + at) cluster.clock.advance(10_000);
    const objects: Snapshot['objects'] = {};
    for (const resource of RESOURCE_NAMES) {
      const list = cluster.store.list(resource).map((entry) => structuredClone(entry.object));
      if (list.length) objects[resource] = list;
    }
    yield { health: assess(makeSnapshot(objects), cluster.clock.now()), now: cluster.clock.now() };
  }
}

describe('finding kinds', () => {
  const finding = (detector: string, severity: FindingDto['severity'], id = `${detector}:${severity}`) =>
    ({ id, detector, severity }) as FindingDto;

  it('are one per detector and active severity, with the failure mode, never per subject, never ok', () => {
    const kinds = findingKindsOf([
      finding('pod-setup-latency', 'critical', 'pod-setup-latency:Node//worker-0'),
      finding('pod-setup-latency', 'critical', 'pod-setup-latency:Node//worker-1'),
      finding('pod-setup-latency', 'warning'),
      finding('update-progress', 'info'),
      finding('update-progress', 'ok'),
      finding('catalog-replicas', 'warning'),
    ]);
    expect(kinds).toEqual([
      { detector: 'catalog-replicas', failureMode: 'C', severity: 'warning' },
      { detector: 'pod-setup-latency', failureMode: 'D', severity: 'critical' },
      { detector: 'pod-setup-latency', failureMode: 'D', severity: 'warning' },
      { detector: 'update-progress', failureMode: 'none', severity: 'info' },
    ]);
  });

  it('name failure mode B critical on the cross-minor rollback story', () => {
    const { snapshot, now } = scenarioSnapshot('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 5 * MINUTE);
    expect(findingKindsOf(assess(snapshot, now).findings)).toContainEqual({
      detector: 'status-write-rejection',
      failureMode: 'B',
      severity: 'critical',
    });
  });
});

describe('update signals', () => {
  it('give the phase and each known part, and no completion while the state is unknown', () => {
    const { snapshot, now } = scenarioSnapshot('update-in-progress', 40 * MINUTE);
    const state = updateStateOfHealth(assess(snapshot, now));
    const signals = updateSignalsOf(state);
    expect(signals.phase).toBe(state.phase);
    expect(signals.phase).toBe('updating-workers');
    expect(signals.completion.find((c) => c.part === 'control_plane')?.ratio).toBe(1);
    const workers = signals.completion.find((c) => c.part === 'workers')!.ratio;
    expect(workers).toBeGreaterThanOrEqual(0);
    expect(workers).toBeLessThan(1);
    expect(updateSignalsOf({ ...state, phase: 'unknown' }).completion).toEqual([]);
  });
});

describe('following an update', () => {
  it('reports the update-in-progress story once, when the last pool is done, timed from its history entry', () => {
    let watch: UpdateWatch | undefined;
    const finished: FinishedUpdate[] = [];
    const step = 2 * MINUTE;
    for (const { health, now } of walk('update-in-progress', UIP_WORKERS_DONE_BY_MS + 20 * MINUTE, step)) {
      const next = followUpdate(watch, health, now);
      watch = next.watch;
      if (next.finished) finished.push(next.finished);
    }
    expect(finished).toHaveLength(1);
    const [update] = finished;
    expect(update.fromMinor).toBe(UIP_FROM_VERSION.split('.').slice(0, 2).join('.'));
    expect(update.toMinor).toBe(UIP_TO_VERSION.split('.').slice(0, 2).join('.'));
    const expected = (UIP_WORKERS_DONE_BY_MS - UIP_UPDATE_REQUESTED_AT_MS) / 1000;
    expect(update.seconds).toBeGreaterThan(expected - 20 * 60);
    expect(update.seconds).toBeLessThanOrEqual(expected + step / 1000);
  });

  it('never reports an update that finished before the first look, and an unknown look changes nothing', () => {
    const { snapshot, now } = scenarioSnapshot('steady', MINUTE);
    const idle = assess(snapshot, now);
    expect(updateStateOfHealth(idle).phase).toBe('idle');
    expect(followUpdate(undefined, idle, now)).toEqual({ watch: { moving: false } });
    const moving: UpdateWatch = { moving: true, fromVersion: '4.15.1', targetVersion: '4.16.2', startedAt: now - 1000 };
    const hidden = { ...idle, access: { hiddenFindings: 0, clusterVersion: false, missing: [] } };
    expect(followUpdate(moving, hidden, now)).toEqual({ watch: moving });
    expect(followUpdate(moving, idle, now).finished).toEqual({ fromMinor: '4.15', toMinor: '4.16', seconds: 1 });
  });
});
