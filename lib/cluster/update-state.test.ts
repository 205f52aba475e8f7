import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import { computeUpdateProgress, snapshotUpdateProgress } from '@/lib/health/update-progress/update-progress';
import { assess, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import { analyzeOffline } from '@/server/offline/analyze-offline';
import {
  UIP_CONTROL_PLANE_DONE_BY_MS,
  UIP_SLOW_DRAIN_FROM_MS,
  UIP_SLOW_DRAIN_RESOLVED_AT_MS,
  UIP_WORKERS_DONE_BY_MS,
} from '@/server/simulator/scenarios/update-in-progress';
import { ROLLBACK_AFTER_WINDOW, ROLLBACK_BEFORE_WINDOW } from '@/server/simulator/scenarios/cross-minor-rollback';
import { visibleHealth, visibleSummary } from '@/lib/access/visible-health';
import { clusterInfo } from './cluster-info';
import { splitSnapshot } from './hosted-views';
import { summaryOf } from './cluster-summary';
import { updateStateOf, updateStateOfHealth } from './update-state';

const MINUTE = 60_000;
const DIR = join(process.cwd(), 'server/fixtures/oc-upgrade/status');

function items(file: string): KubeObject[] {
  if (!existsSync(join(DIR, file))) return [];
  return (yaml.load(readFileSync(join(DIR, file), 'utf8')) as { items?: KubeObject[] }).items ?? [];
}

/** State of one of oc's own `oc adm upgrade status` examples at the time its expected output was taken. */
function ocExample(name: string) {
  const loaded = yaml.load(readFileSync(join(DIR, `${name}-cv.yaml`), 'utf8')) as KubeObject & { items?: KubeObject[] };
  const cv = loaded.kind === 'List' && loaded.items ? loaded.items[0] : loaded;
  const input = {
    clusterVersion: cv,
    clusterOperators: items(`${name}-co.yaml`),
    machineConfigPools: items(`${name}-mcp.yaml`),
    machineConfigs: items(`${name}-mc.yaml`),
    nodes: items(`${name}-node.yaml`),
  };
  type Conditions = { conditions?: { lastTransitionTime?: string }[] } | undefined;
  const times = [cv, ...input.clusterOperators].flatMap((o) =>
    ((o.status as Conditions)?.conditions ?? []).map((c) => Date.parse(c.lastTransitionTime ?? '') || 0),
  );
  const progress = computeUpdateProgress(input, Math.max(...times));
  const info = clusterInfo('x', 'x', cv);
  const state = updateStateOf({ progress, history: info.history, requestedVersion: info.desiredVersion, findings: [] });
  return { progress, state };
}

const EXAMPLES = readdirSync(DIR)
  .filter((f) => f.endsWith('-cv.yaml'))
  .map((f) => f.slice(0, -'-cv.yaml'.length))
  .sort();

describe('update state on oc adm upgrade status examples', () => {
  it.each(EXAMPLES)("%s: never idle while a pool is behind, never an estimate of 0, no estimate past oc's", (name) => {
    const { progress, state } = ocExample(name);
    const behind = progress.workerPools.some((pool) => pool.totalNodes > 0 && pool.completionPercent < 100);
    if (behind || progress.controlPlane.assessment !== 'Completed') expect(state.phase).not.toBe('idle');
    if (state.estimate.remainingSeconds !== null) {
      expect(state.estimate.remainingSeconds).toBeGreaterThan(0);
      expect(progress.controlPlane.assessment).toBe('Progressing');
    } else if (state.phase !== 'idle') {
      expect(state.estimate.note).toMatch(/^unknown: /);
    }
  });

  it("control plane done, drains failing for an hour: stalled, with the workers' counts and no estimate", () => {
    const { state } = ocExample('4.16.0-ec2-control-plane-updated-pdb-prohibits-draining');
    expect(state.phase).toBe('stalled');
    expect(state.controlPlane).toEqual({ percent: 100, done: true });
    expect(state.pools.find((pool) => pool.name === 'worker')).toEqual({
      name: 'worker',
      updated: 22,
      total: 59,
      unknown: 2,
    });
    expect(state.estimate).toEqual({ remainingSeconds: null, note: 'unknown: the update is stalled' });
  });

  it('a cluster that is not updating is idle', () => {
    expect(ocExample('not-upgrading').state.phase).toBe('idle');
  });
});

describe('update state of the embedded scenarios', () => {
  it('update-in-progress: control plane past its estimate has no estimate (not "<10m")', () => {
    const { snapshot, now } = scenarioSnapshot('update-in-progress', UIP_SLOW_DRAIN_FROM_MS + 4 * MINUTE);
    const health = assess(snapshot, now);
    expect(health.updateProgress?.controlPlane.assessment).toBe('Progressing - Slow'); // oc: est. <10m
    expect(health.updateState).toMatchObject({
      phase: 'updating-control-plane',
      targetVersion: '4.16.9',
      fromVersion: '4.15.30',
    });
    expect(health.updateState?.estimate.remainingSeconds).toBeNull();
  });

  it('update-in-progress mid-drain: updating workers after ClusterVersion says Completed, nothing to request', () => {
    const { snapshot, now } = scenarioSnapshot('update-in-progress', UIP_CONTROL_PLANE_DONE_BY_MS + 25 * MINUTE);
    const health = assess(snapshot, now);
    expect(health.updateProgress?.controlPlane.assessment).toBe('Completed');
    const state = health.updateState!;
    expect(state).toMatchObject({ phase: 'updating-workers', label: 'Updating workers to 4.16.9', rollingBack: false });
    expect(state.pools).toEqual([{ name: 'worker', updated: 1, total: 3, unknown: 0 }]);
    expect(state.estimate.remainingSeconds).toBeNull();
    expect(summaryOf(health)).toMatchObject({
      updating: true,
      updatePhase: 'updating-workers',
      updateLabel: 'Updating workers to 4.16.9',
    });
    expect(health.findings.find((f) => f.id === 'update-progress/summary')?.title).toBe(
      'Update to 4.16.9: control plane Completed, workers updating (worker 1/3)',
    );
    // The served progress is the one the update-progress detector judged (the very object: see its test).
    expect(health.updateProgress).toStrictEqual(snapshotUpdateProgress(snapshot, now));
    expect(health.updateRecommendations?.predictions?.find((p) => p.check === 'update-in-progress')?.status).toBe(
      'block',
    );
  });

  it('update-in-progress: idle once every worker runs the target', () => {
    expect(UIP_WORKERS_DONE_BY_MS).toBeGreaterThan(UIP_SLOW_DRAIN_RESOLVED_AT_MS);
    const { snapshot, now } = scenarioSnapshot('update-in-progress', UIP_WORKERS_DONE_BY_MS + 5 * MINUTE);
    const health = assess(snapshot, now);
    expect(health.updateState).toMatchObject({
      phase: 'idle',
      label: 'Idle',
      pools: [{ name: 'worker', updated: 3, total: 3 }],
    });
    expect(health.updateRecommendations?.predictions?.find((p) => p.check === 'update-in-progress')?.status).toBe(
      'pass',
    );
  });

  it('cross-minor-rollback: updating forward, then rolling back with ClusterVersion status frozen', () => {
    const before = scenarioSnapshot('cross-minor-rollback', ROLLBACK_BEFORE_WINDOW.toMs - 10_000);
    // The story's workers keep their 4.13.40 MachineConfig: by oc's rule they are still to update.
    expect(assess(before.snapshot, before.now).updateState).toMatchObject({
      phase: 'updating-workers',
      rollingBack: false,
      targetVersion: '4.14.27',
    });
    const after = scenarioSnapshot('cross-minor-rollback', ROLLBACK_AFTER_WINDOW.fromMs + 6 * MINUTE);
    const health = assess(after.snapshot, after.now);
    const state = health.updateState!;
    expect(health.findings.find((f) => f.id === 'update-progress/summary')?.title).toMatch(
      /^Stale \(ClusterVersion status frozen\): /,
    );
    const inFlight = health.updateRecommendations?.predictions?.find((p) => p.check === 'update-in-progress');
    expect(inFlight).toMatchObject({
      status: 'block',
      title: 'An update is in progress: Rolling back to 4.13.40 · ClusterVersion status frozen',
    });
    expect(inFlight?.detail).not.toContain('% complete');
    expect(state).toMatchObject({
      phase: 'status-frozen',
      rollingBack: true,
      targetVersion: '4.13.40',
      fromVersion: '4.14.27',
    });
    expect(state.label).toBe('Rolling back to 4.13.40 · ClusterVersion status frozen');
    expect(state.frozen?.reason).toBe('ClusterVersion status writes will be rejected');
    expect(state.estimate.remainingSeconds).toBeNull();
    expect(state.operatorVersions?.map((v) => v.version)).toEqual(expect.arrayContaining(['4.13.40']));
    expect(state.nodeVersions?.reduce((n, v) => n + v.nodes, 0)).toBe(6);
  });
});

describe('hosted control planes', () => {
  it('a hosted cluster seen from its management cluster has a known state from its HostedCluster', () => {
    const { snapshot, now } = scenarioSnapshot('hypershift-management', 30 * MINUTE);
    const parts = splitSnapshot(snapshot).hosted;
    expect(parts.length).toBeGreaterThan(0);
    for (const part of parts) {
      const state = assess(part.snapshot, now, part.name).updateState!;
      expect(state.phase, `${part.name}: ${state.label}`).not.toBe('unknown');
      expect(state.targetVersion).toMatch(/^4\./);
    }
  });
});

describe('unknown is unknown', () => {
  it('a viewer who may not read the ClusterVersion gets "unknown", not "Idle"', () => {
    const { snapshot, now } = scenarioSnapshot('update-in-progress', UIP_CONTROL_PLANE_DONE_BY_MS);
    const health = assess(snapshot, now);
    const withheld = {
      ...health,
      updateProgress: null,
      updateState: undefined,
      access: { hiddenFindings: 0, clusterVersion: false, missing: [] },
    };
    expect(updateStateOfHealth(withheld)).toMatchObject({
      phase: 'unknown',
      label: 'Update state unknown: you may not read clusterversions',
    });
    expect(summaryOf(withheld)).toMatchObject({ updating: false, updatePhase: 'unknown' });
  });

  it('through the visibility filter: a viewer who may list pods but not read clusterversions sees "unknown"', () => {
    const { snapshot, now } = scenarioSnapshot('update-in-progress', UIP_CONTROL_PLANE_DONE_BY_MS);
    const health = assess(snapshot, now);
    const allowed = (check: { resource: string }) => check.resource === 'pods';
    const seen = visibleHealth(health, allowed);
    expect(seen.updateState).toBeUndefined();
    expect(updateStateOfHealth(seen)).toMatchObject({
      phase: 'unknown',
      unknownReason: 'you may not read clusterversions',
    });
    expect(visibleSummary(health, allowed)).toMatchObject({
      updating: false,
      updatePhase: 'unknown',
      updateLabel: 'Update state unknown: you may not read clusterversions',
    });
  });

  it('without a ClusterVersion, or without its history, the state is unknown and says where it is missing', () => {
    const progress = computeUpdateProgress(
      { clusterOperators: [], machineConfigPools: [], machineConfigs: [], nodes: [] },
      0,
    );
    expect(
      updateStateOf({ progress, history: [], requestedVersion: null, findings: [], origin: 'must-gather' }).label,
    ).toBe('Update state unknown: ClusterVersion not in the must-gather');
    const cv = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: { name: 'version' },
      status: {},
    } as KubeObject;
    const noHistory = computeUpdateProgress(
      { clusterVersion: cv, clusterOperators: [], machineConfigPools: [], machineConfigs: [], nodes: [] },
      0,
    );
    expect(
      updateStateOf({ progress: noHistory, history: [], requestedVersion: null, findings: [], origin: 'must-gather' }),
    ).toMatchObject({ phase: 'unknown', unknownReason: 'ClusterVersion history not in the must-gather' });
  });

  it('a must-gather of a fresh 4.8.11 install reads "Installed 4.8.11", its nodes unknown rather than outdated', async () => {
    const { health } = await analyzeOffline([join(process.cwd(), 'server/fixtures/must-gather/azure-4.8.11')]);
    const state = health.updateState!;
    expect(state).toMatchObject({ phase: 'idle', installed: true, label: 'Installed 4.8.11' });
    for (const pool of state.pools) expect(pool.unknown + pool.updated).toBe(pool.total);
    expect(health.findings.find((f) => f.id === 'update-progress/summary')?.title).not.toMatch(/Update .*Completed/);
  });
});
