import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { CVO_POD_SELECTOR } from '../controllers/base-cluster';
import { CVO_CONTAINER, CVO_NAMESPACE } from '../controllers/cluster-version-operator';
import { OVN_NAMESPACE, OVNKUBE_METRICS_PORT } from '../controllers/ovnkube';
import { histogramQuantile, parseHistogram } from '../metrics/prometheus-text';
import { CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE } from '../objects/olm';
import { MINUTE } from '../objects/time';
import { SCENARIOS } from './registry';
import { steadyScenario } from './steady';

interface Cond {
  type: string;
  status: string;
}

function condition(object: { status?: unknown } | undefined, type: string): string | undefined {
  return ((object?.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).find((c) => c.type === type)
    ?.status;
}

describe('steady scenario', () => {
  it('is a healthy 4.16 cluster with nothing red', async () => {
    const cluster = createSimulatedCluster({ seed: 7 });
    runScenario(cluster, steadyScenario);
    cluster.clock.advance(30 * MINUTE);
    const cv = cluster.client.get('clusterversions', 'version')!;
    expect(condition(cv, 'Available')).toBe('True');
    expect(condition(cv, 'Progressing')).toBe('False');
    expect(condition(cv, 'Failing')).toBe('False');
    const history = (cv.status as { history: { version: string }[] }).history.map((entry) => entry.version);
    expect(history[0]).toBe('4.16.8');
    const gates = (
      cluster.client.get('featuregates', 'cluster')!.status as {
        featureGates: { version: string; enabled: unknown[] }[];
      }
    ).featureGates;
    for (const version of history) expect(gates.map((g) => g.version)).toContain(version);
    expect(gates[0].enabled.length).toBeGreaterThan(10);
    const operators = cluster.client.list('clusteroperators');
    expect(operators.length).toBeGreaterThanOrEqual(30);
    for (const co of operators) {
      expect(condition(co, 'Available')).toBe('True');
      expect(condition(co, 'Degraded')).toBe('False');
    }
    expect(cluster.client.list('nodes')).toHaveLength(6);
    for (const pool of cluster.client.list('machineconfigpools')) expect(condition(pool, 'Updated')).toBe('True');
    // OLMv1 is a Technology Preview in 4.16: absent with the Default feature set
    expect(cluster.client.get('deployments', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE)).toBeUndefined();
    expect(cluster.client.get('clusteroperators', 'olm')).toBeUndefined();
    const cvoPod = cluster.client.list('pods', { namespace: CVO_NAMESPACE, labelSelector: CVO_POD_SELECTOR })[0];
    const log = cluster.logs.read(CVO_NAMESPACE, cvoPod.metadata.name, CVO_CONTAINER);
    expect(log).toContain('Finished syncing cluster version');
    expect(log).not.toContain('Error handling');

    for (const pod of cluster.client.list('pods', { namespace: OVN_NAMESPACE })) {
      await cluster.proxy.prepare('pods', OVN_NAMESPACE, pod.metadata.name);
      const body = cluster.proxy.handle(
        'pods',
        OVN_NAMESPACE,
        pod.metadata.name,
        OVNKUBE_METRICS_PORT,
        '/metrics',
      )!.body;
      expect(
        histogramQuantile(0.99, parseHistogram(body, 'ovnkube_controller_pod_creation_latency_seconds')),
      ).toBeLessThan(0.5);
    }
  });

  it('every scenario is registered and reaches its failure within 20 virtual minutes', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual([
      'catalogd-rollout',
      'cross-minor-rollback',
      'extension-install-flap',
      'high-density-drain',
      'hypershift-featuregate-drop',
      'hypershift-management',
      'steady',
      'update-in-progress',
    ]);
    for (const [name, scenario] of Object.entries(SCENARIOS)) {
      expect(scenario?.name).toBe(name);
      expect(scenario!.failureAtMs).toBeLessThanOrEqual(20 * MINUTE);
    }
  });
});
