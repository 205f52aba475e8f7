import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { MINUTE } from '../objects/time';
import {
  HYPERSHIFT_CRASHLOOP_PODS,
  HYPERSHIFT_FEATUREGATE_DROPPED_BY_MS,
  HYPERSHIFT_STALLED_BY_MS,
  HYPERSHIFT_STUCK_OPERATOR,
  hypershiftFeatureGateDropScenario,
} from './hypershift-featuregate-drop';

interface ContainerStatus {
  restartCount: number;
  state: { waiting?: { reason: string } };
  lastState: { terminated?: { exitCode: number; message: string } };
}

function start(seed = 3) {
  const cluster = createSimulatedCluster({ seed });
  runScenario(cluster, hypershiftFeatureGateDropScenario);
  return cluster;
}

function featureGateVersions(cluster: ReturnType<typeof start>): string[] {
  const gate = cluster.client.get('featuregates', 'cluster');
  return (gate?.status as { featureGates: { version: string }[] }).featureGates.map((entry) => entry.version);
}

function operatorVersion(cluster: ReturnType<typeof start>, name: string): string | undefined {
  const co = cluster.client.get('clusteroperators', name);
  return (co?.status as { versions: { name: string; version: string }[] }).versions.find((v) => v.name === 'operator')
    ?.version;
}

describe('hypershift-featuregate-drop scenario', () => {
  it('is a hosted cluster listing 4.14.38 before the update', () => {
    const cluster = start();
    const infra = cluster.client.get('infrastructures', 'cluster');
    expect((infra?.status as { controlPlaneTopology: string }).controlPlaneTopology).toBe('External');
    expect(featureGateVersions(cluster)).toEqual(['4.14.38']);
    expect(cluster.client.list('pods', { namespace: 'openshift-cluster-version' })).toHaveLength(0);
  });

  it('holds only 4.14.39 while ClusterOperators still run 4.14.38, and consumers crash-loop', () => {
    const cluster = start();
    cluster.clock.advance(HYPERSHIFT_FEATUREGATE_DROPPED_BY_MS);
    expect(featureGateVersions(cluster)).toEqual(['4.14.39']);
    cluster.clock.advance(HYPERSHIFT_STALLED_BY_MS - HYPERSHIFT_FEATUREGATE_DROPPED_BY_MS + 2 * MINUTE);
    expect(featureGateVersions(cluster)).toEqual(['4.14.39']);
    const names = cluster.client.list('clusteroperators').map((co) => co.metadata.name);
    const old = names.filter((name) => operatorVersion(cluster, name) === '4.14.38');
    const updated = names.filter((name) => operatorVersion(cluster, name) === '4.14.39');
    expect(old).toContain(HYPERSHIFT_STUCK_OPERATOR);
    expect(old.length).toBeGreaterThan(3);
    expect(updated.length).toBeGreaterThan(3);
    const cv = cluster.client.get('clusterversions', 'version')!;
    const status = cv.status as {
      history: { version: string; state: string }[];
      conditions: { type: string; status: string; message: string }[];
    };
    expect(status.history[0]).toMatchObject({ version: '4.14.39', state: 'Partial' });
    const progressing = status.conditions.find((c) => c.type === 'Progressing')!;
    expect(progressing.status).toBe('True');
    expect(progressing.message).toMatch(
      /^Working towards 4\.14\.39: \d+ of \d+ done \(\d+% complete\), waiting on node-tuning/,
    );

    const pods = cluster.client.list('pods', { namespace: HYPERSHIFT_CRASHLOOP_PODS.namespace });
    expect(pods).toHaveLength(3);
    const first = (pods[0].status as { containerStatuses: ContainerStatus[] }).containerStatuses[0];
    expect(first.state.waiting?.reason).toBe('CrashLoopBackOff');
    expect(first.restartCount).toBeGreaterThanOrEqual(2);
    expect(first.lastState.terminated?.exitCode).toBe(255);
    const previous = cluster.logs.read(
      HYPERSHIFT_CRASHLOOP_PODS.namespace,
      pods[0].metadata.name,
      HYPERSHIFT_CRASHLOOP_PODS.container,
      { previous: true },
    );
    expect(previous).toMatch(
      /^F\d{4} [\d:.]+ +1 main\.go:\d+\] unable to determine features: missing desired version "4\.14\.38" in featuregates\.config\.openshift\.io\/cluster$/m,
    );

    const before = first.restartCount;
    cluster.clock.advance(60 * MINUTE);
    const after = (
      cluster.client.get('pods', pods[0].metadata.name, HYPERSHIFT_CRASHLOOP_PODS.namespace)!.status as {
        containerStatuses: ContainerStatus[];
      }
    ).containerStatuses[0];
    expect(after.restartCount).toBeGreaterThan(before);
    expect(featureGateVersions(cluster)).toEqual(['4.14.39']);
    expect(operatorVersion(cluster, HYPERSHIFT_STUCK_OPERATOR)).toBe('4.14.38');
  });

  it('is deterministic for a seed', () => {
    const a = start(11);
    const b = start(11);
    a.clock.advance(12 * MINUTE);
    b.clock.advance(12 * MINUTE);
    for (const resource of ['clusterversions', 'clusteroperators', 'pods', 'featuregates'] as const) {
      expect(JSON.stringify(a.client.list(resource))).toBe(JSON.stringify(b.client.list(resource)));
    }
  });
});
