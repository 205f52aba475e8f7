import { describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import { createSimulatedCluster, runScenario } from '../core';
import { MINUTE } from '../objects/time';
import { FEATURE_GATE_CONFIGMAP, FEATURE_GATE_KEY, hcpNamespace } from '../objects/hypershift';
import { HCP_WORKLOADS } from '../objects/hcp-workloads';
import {
  HCP_CRASHLOOP_BY_MS,
  HCP_STALLED_BY_MS,
  HC_HEALTHY,
  HC_ROLLING,
  HC_STALLED,
  NODEPOOL_UPDATE_AT_MS,
  ROLLING_TO_VERSION,
  hypershiftManagementScenario,
} from './hypershift-management';

interface Cond {
  type: string;
  status: string;
  reason: string;
  message: string;
}
type Cluster = ReturnType<typeof createSimulatedCluster>;

function start(seed = 2): Cluster {
  const cluster = createSimulatedCluster({ seed });
  runScenario(cluster, hypershiftManagementScenario);
  return cluster;
}

function hc(cluster: Cluster, name: string): KubeObject {
  return cluster.client.get('hostedclusters', name, 'clusters')!;
}

function condition(object: KubeObject, type: string): Cond | undefined {
  return ((object.status as { conditions?: Cond[] }).conditions ?? []).find((c) => c.type === type);
}

function history(object: KubeObject): string[] {
  return (object.status as { version: { history: { version: string; state: string }[] } }).version.history.map(
    (h) => `${h.version} ${h.state}`,
  );
}

function renderedVersions(cluster: Cluster, name: string): string[] {
  const cm = cluster.client.get('configmaps', FEATURE_GATE_CONFIGMAP, hcpNamespace(name)) as
    { data: Record<string, string> } | undefined;
  const rendered = load(cm?.data[FEATURE_GATE_KEY] ?? '') as {
    kind: string;
    status: { featureGates: { version: string }[] };
  };
  expect(rendered.kind).toBe('FeatureGate');
  return rendered.status.featureGates.map((entry) => entry.version);
}

describe('hypershift-management scenario', () => {
  it('serves three HostedClusters with NodePools and a full HCP namespace each, all healthy at start', () => {
    const cluster = start();
    const names = cluster.client
      .list('hostedclusters', { namespace: 'clusters' })
      .map((o) => o.metadata.name)
      .sort();
    expect(names).toEqual([HC_HEALTHY, HC_ROLLING, HC_STALLED].sort());
    expect(cluster.client.list('nodepools', { namespace: 'clusters' })).toHaveLength(4);
    for (const name of names) {
      const ns = hcpNamespace(name);
      expect(cluster.client.get('hostedcontrolplanes', name, ns)).toBeDefined();
      expect(cluster.client.list('deployments', { namespace: ns })).toHaveLength(
        HCP_WORKLOADS.filter((w) => w.kind === 'Deployment').length,
      );
      expect(cluster.client.list('pods', { namespace: ns })).toHaveLength(HCP_WORKLOADS.length);
      expect(cluster.client.list('controlplanecomponents', { namespace: ns }).length).toBe(
        HCP_WORKLOADS.filter((w) => w.component).length,
      );
      expect(condition(hc(cluster, name), 'Available')?.status).toBe('True');
      expect(condition(hc(cluster, name), 'Degraded')?.status).toBe('False');
      expect(condition(hc(cluster, name), 'ClusterVersionSucceeding')?.status).toBe('True');
    }
    expect(renderedVersions(cluster, HC_STALLED)).toEqual(['4.14.38']);
    expect(history(hc(cluster, HC_STALLED))).toEqual(['4.14.38 Completed', '4.14.37 Completed']);
  });

  it('stalls the z-stream update: the rendered FeatureGate loses 4.14.38 and the HCP operators crash-loop', () => {
    const cluster = start();
    cluster.clock.advance(HCP_CRASHLOOP_BY_MS);
    expect(renderedVersions(cluster, HC_STALLED)).toEqual(['4.14.39']);
    const ns = hcpNamespace(HC_STALLED);
    const crashing = cluster.client
      .list('pods', { namespace: ns })
      .filter(
        (pod) =>
          (pod.status as { containerStatuses: { state: { waiting?: { reason: string } } }[] }).containerStatuses[0]
            .state.waiting?.reason === 'CrashLoopBackOff',
      );
    expect(crashing.map((pod) => pod.metadata.labels?.app).sort()).toEqual([
      'cloud-network-config-controller',
      'cluster-network-operator',
      'cluster-storage-operator',
      'ingress-operator',
    ]);
    const cno = crashing.find((pod) => pod.metadata.labels?.app === 'cluster-network-operator')!;
    const previous = cluster.logs.read(ns, cno.metadata.name, 'cluster-network-operator');
    expect(previous).toContain(
      'unable to determine features: missing desired version "4.14.38" in featuregates.config.openshift.io/cluster',
    );
    expect(history(hc(cluster, HC_STALLED))[0]).toBe('4.14.39 Partial');
    expect(condition(hc(cluster, HC_STALLED), 'Available')).toMatchObject({
      status: 'False',
      reason: 'ComponentsNotAvailable',
      message:
        'Waiting for components to be available: cluster-network-operator, ingress-operator, cluster-storage-operator',
    });
    expect(condition(hc(cluster, HC_STALLED), 'Degraded')).toMatchObject({
      status: 'True',
      reason: 'UnavailableReplicas',
    });
    const cpc = cluster.client.get('controlplanecomponents', 'ingress-operator', ns)!;
    expect(condition(cpc, 'Available')?.status).toBe('False');
    expect((cpc.status as { version: string }).version).toBe('4.14.38');

    cluster.clock.advance(HCP_STALLED_BY_MS - HCP_CRASHLOOP_BY_MS);
    expect(condition(hc(cluster, HC_STALLED), 'ClusterVersionSucceeding')).toMatchObject({
      status: 'False',
      reason: 'ClusterOperatorsNotAvailable',
      message: 'Cluster operators ingress, network, storage are not available',
    });
    const kas = cluster.client.get('controlplanecomponents', 'kube-apiserver', ns)!;
    expect((kas.status as { version: string }).version).toBe('4.14.39');
    cluster.clock.advance(60 * MINUTE);
    expect(history(hc(cluster, HC_STALLED))[0]).toBe('4.14.39 Partial');
    expect(condition(hc(cluster, HC_HEALTHY), 'Degraded')?.status).toBe('False');
  });

  it('replaces NodePool machines one at a time with upstream messages, then reports the new version', () => {
    const cluster = start();
    cluster.clock.advance(NODEPOOL_UPDATE_AT_MS + 4 * MINUTE);
    const pool = cluster.client.get('nodepools', `${HC_ROLLING}-us-east-1a`, 'clusters')!;
    const status = pool.status as {
      version: string;
      replicas: number;
      nodesInfo: { nodeVersions: { ocpVersion: string; readyNodeCount: number }[] };
    };
    expect(condition(pool, 'UpdatingVersion')).toMatchObject({
      status: 'True',
      message: `Updating version in progress. Target version: ${ROLLING_TO_VERSION}`,
    });
    expect(status.version).toBe('4.16.7');
    expect(status.nodesInfo.nodeVersions.map((v) => v.ocpVersion)).toContain(ROLLING_TO_VERSION);
    const second = cluster.client.get('nodepools', `${HC_ROLLING}-us-east-1b`, 'clusters')!;
    expect(condition(second, 'UpdatingVersion')?.status).toBe('True');
    expect(condition(second, 'UpdatingConfig')?.message).toMatch(
      /^Updating config in progress\. Target config: [0-9a-f]{8}$/,
    );
    cluster.clock.advance(30 * MINUTE);
    expect(
      condition(cluster.client.get('nodepools', `${HC_ROLLING}-us-east-1b`, 'clusters')!, 'UpdatingConfig')?.status,
    ).toBe('False');
    const done = cluster.client.get('nodepools', `${HC_ROLLING}-us-east-1a`, 'clusters')!;
    expect((done.status as { version: string; replicas: number }).version).toBe(ROLLING_TO_VERSION);
    expect((done.status as { replicas: number }).replicas).toBe(3);
    expect(condition(done, 'UpdatingVersion')?.status).toBe('False');
  });

  it('is deterministic for a seed', () => {
    const a = start(7);
    const b = start(7);
    a.clock.advance(10 * MINUTE);
    b.clock.advance(10 * MINUTE);
    const names = (c: Cluster) =>
      c.client
        .list('pods', { namespace: hcpNamespace(HC_STALLED) })
        .map((p) => p.metadata.name)
        .sort();
    expect(names(a)).toEqual(names(b));
    expect(hc(a, HC_STALLED).status).toEqual(hc(b, HC_STALLED).status);
  });
});
