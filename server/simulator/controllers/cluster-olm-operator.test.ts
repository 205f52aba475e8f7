import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario, type SimulatedCluster } from '../core';
import { startTestServer } from '../test-harness';
import { historyEntry } from '../objects/cluster-version';
import {
  CATALOGD_DEPLOYMENT,
  CATALOGD_NAMESPACE,
  OPERATOR_CONTROLLER_DEPLOYMENT as CONTROLLER,
  OPERATOR_CONTROLLER_NAMESPACE as CONTROLLER_NAMESPACE,
} from '../objects/olm';
import { TECH_PREVIEW_FEATURE_SET } from '@/lib/health/shared/olmv1-presence';
import { HOUR, MINUTE, SECOND } from '../objects/time';
import { CATALOGD_SCALED_AT_MS } from '../scenarios/catalogd-rollout';
import { SCENARIOS } from '../scenarios/registry';
import type { Scenario, ScenarioName } from '../types';
import { installBaseCluster } from './base-cluster';

/** What of OLMv1 a cluster serves: CRDs, namespaces, Deployments, PDBs, ClusterCatalogs, the `olm` operator. */
function olmV1Objects(cluster: SimulatedCluster): string[] {
  const client = cluster.client;
  return [
    client.get('customresourcedefinitions', 'clusterextensions.olm.operatorframework.io') && 'crd/clusterextensions',
    client.get('customresourcedefinitions', 'clustercatalogs.olm.operatorframework.io') && 'crd/clustercatalogs',
    client.get('namespaces', CATALOGD_NAMESPACE) && `namespace/${CATALOGD_NAMESPACE}`,
    client.get('namespaces', CONTROLLER_NAMESPACE) && `namespace/${CONTROLLER_NAMESPACE}`,
    client.get('deployments', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE) && 'deployment/catalogd',
    client.get('deployments', CONTROLLER, CONTROLLER_NAMESPACE) && 'deployment/operator-controller',
    client.get('poddisruptionbudgets', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE) && 'pdb/catalogd',
    client.get('poddisruptionbudgets', CONTROLLER, CONTROLLER_NAMESPACE) && 'pdb/operator-controller',
    client.get('clusteroperators', 'olm') && 'clusteroperator/olm',
  ].filter((entry): entry is string => typeof entry === 'string');
}

const ALL_OLM_V1 = [
  'crd/clusterextensions',
  'crd/clustercatalogs',
  `namespace/${CATALOGD_NAMESPACE}`,
  `namespace/${CONTROLLER_NAMESPACE}`,
  'deployment/catalogd',
  'deployment/operator-controller',
  'pdb/catalogd',
  'pdb/operator-controller',
  'clusteroperator/olm',
];

function started(scenario: Scenario, minutes = 2): SimulatedCluster {
  const cluster = createSimulatedCluster({ seed: 5 });
  runScenario(cluster, scenario);
  cluster.clock.advance(minutes * MINUTE);
  return cluster;
}

function baseAt(version: string, featureSet?: string): Scenario {
  return {
    name: 'steady',
    title: version,
    description: version,
    failureAtMs: 0,
    start(context) {
      const now = context.clock.now();
      const history = [historyEntry(version, now - 9 * 24 * HOUR, now - 9 * 24 * HOUR + HOUR)];
      installBaseCluster(context, { version, featureSet, history });
    },
  };
}

describe('OLMv1 exists only on releases that ship it', () => {
  it.each<[ScenarioName, boolean]>([
    ['steady', false],
    ['update-in-progress', false],
    ['cross-minor-rollback', false],
    ['hypershift-featuregate-drop', false],
    ['hypershift-management', false],
    ['catalogd-rollout', true],
    ['extension-install-flap', true],
    ['high-density-drain', true],
  ])('%s: OLMv1 present = %s', (name, present) => {
    expect(olmV1Objects(started(SCENARIOS[name]!))).toEqual(present ? ALL_OLM_V1 : []);
  });

  it('4.14–4.17 run it only with TechPreviewNoUpgrade; 4.13 never; 4.18 by default', () => {
    expect(olmV1Objects(started(baseAt('4.16.8')))).toEqual([]);
    expect(olmV1Objects(started(baseAt('4.16.8', TECH_PREVIEW_FEATURE_SET)))).toEqual(ALL_OLM_V1);
    expect(olmV1Objects(started(baseAt('4.14.27', TECH_PREVIEW_FEATURE_SET)))).toEqual(ALL_OLM_V1);
    expect(olmV1Objects(started(baseAt('4.13.40', TECH_PREVIEW_FEATURE_SET)))).toEqual([]);
    expect(olmV1Objects(started(baseAt('4.18.12')))).toEqual(ALL_OLM_V1);
    const techPreview = started(baseAt('4.17.24', TECH_PREVIEW_FEATURE_SET));
    expect(techPreview.client.get('featuregates', 'cluster')?.spec).toEqual({ featureSet: TECH_PREVIEW_FEATURE_SET });
  });
});

describe('cluster-olm-operator owns the catalogd Deployment', () => {
  const catalogd = (cluster: SimulatedCluster) =>
    cluster.client.get('deployments', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE)!;
  const replicas = (cluster: SimulatedCluster) => (catalogd(cluster).spec as { replicas: number }).replicas;
  const scaleByHand = (cluster: SimulatedCluster, to: number) =>
    cluster.client.patch(
      'deployments',
      CATALOGD_DEPLOYMENT,
      { spec: { replicas: to } },
      { namespace: CATALOGD_NAMESPACE, type: 'merge' },
    );
  const kubectlScale = ['scale', 'deployment', CATALOGD_DEPLOYMENT, '-n', CATALOGD_NAMESPACE, '--replicas=2'];

  it('reverts a hand scale within seconds; the manifests with two replicas stick', () => {
    const cluster = started(SCENARIOS['catalogd-rollout']!, 10);
    const start = cluster.clock.now() - 10 * MINUTE;
    expect(replicas(cluster)).toBe(1);
    scaleByHand(cluster, 2);
    expect(replicas(cluster)).toBe(2);
    cluster.clock.advance(11 * SECOND);
    expect(replicas(cluster)).toBe(1);

    // left alone, the operator does not rewrite what already matches its manifests
    const generation = catalogd(cluster).metadata.generation;
    cluster.clock.advance(2 * MINUTE);
    expect(catalogd(cluster).metadata.generation).toBe(generation);

    cluster.clock.advance(start + CATALOGD_SCALED_AT_MS + SECOND - cluster.clock.now());
    expect(replicas(cluster)).toBe(2);
    scaleByHand(cluster, 1);
    cluster.clock.advance(11 * SECOND);
    expect(replicas(cluster)).toBe(2);
  });

  it('kubectl scale reaches the Deployment through the scale subresource, and the operator puts it back', async () => {
    const t = await startTestServer();
    try {
      runScenario(t.cluster, SCENARIOS['catalogd-rollout']!);
      t.cluster.clock.advance(10 * MINUTE);
      const refused = await t.kubectl('reader', kubectlScale);
      expect(refused.code).not.toBe(0);
      expect(replicas(t.cluster)).toBe(1);
      const scaled = await t.kubectl('admin', kubectlScale);
      expect(scaled).toMatchObject({ code: 0 });
      expect(scaled.stdout).toContain(`deployment.apps/${CATALOGD_DEPLOYMENT} scaled`);
      expect(replicas(t.cluster)).toBe(2);
      t.cluster.clock.advance(11 * SECOND);
      const after = await t.kubectl('reader', [
        'get',
        'deployment',
        CATALOGD_DEPLOYMENT,
        '-n',
        CATALOGD_NAMESPACE,
        '-o',
        'jsonpath={.spec.replicas}',
      ]);
      expect(after.stdout).toBe('1');
    } finally {
      await t.close();
    }
  });
});
