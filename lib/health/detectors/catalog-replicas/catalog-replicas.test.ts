import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import type { ConditionTransition, ProbeResult } from '@/lib/health/types';
import { catalogReplicas } from '@/lib/health/detectors/catalog-replicas/catalog-replicas';
import {
  makeClusterOperator,
  makeClusterVersion,
  makeContext,
  makeLease,
  makePod,
  makeSnapshot,
  withDeploymentStatus,
  withPdbStatus,
} from '@/lib/health/testing/builders';

const fixtures = join(import.meta.dirname, '../../../../server/fixtures/olmv1');
const ctx = makeContext('2025-03-01T10:00:00Z');

/** The real upstream manifests (Deployments + PDBs, verbatim), as a release installs them. */
function upstream(tag: string): { deployments: KubeObject[]; pdbs: KubeObject[] } {
  const docs = loadAll(
    readFileSync(join(fixtures, `upstream/${tag}/deployments-and-pdbs.yaml`), 'utf8'),
  ) as KubeObject[];
  return {
    deployments: docs.filter((d) => d?.kind === 'Deployment'),
    pdbs: docs.filter((d) => d?.kind === 'PodDisruptionBudget'),
  };
}

const healthy = (d: KubeObject): KubeObject => {
  const replicas = (d.spec as { replicas?: number }).replicas ?? 1;
  return withDeploymentStatus(d, {
    replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    updatedReplicas: replicas,
  });
};

const summarize = (snapshot: ReturnType<typeof makeSnapshot>): [string, string][] =>
  catalogReplicas.detect(snapshot, ctx).findings.map((f) => [f.id, f.severity]);

describe('catalogReplicas — real upstream manifests', () => {
  it('v1.8.0: 1 replica + PDB minAvailable 1 → drains block; single replica warned; strategy is safe', () => {
    const { deployments, pdbs } = upstream('v1.8.0');
    expect(pdbs.map((p) => (p.spec as { minAvailable: number }).minAvailable)).toStrictEqual([1, 1]);
    const snapshot = makeSnapshot({ deployments: deployments.map(healthy), poddisruptionbudgets: pdbs });
    expect(summarize(snapshot)).toStrictEqual([
      ['catalog-replicas:Deployment/olmv1-system/catalogd-controller-manager:single-replica', 'warning'],
      ['catalog-replicas:PodDisruptionBudget/olmv1-system/catalogd-controller-manager:drain-blocked', 'warning'],
      ['catalog-replicas:Deployment/olmv1-system/operator-controller-controller-manager:single-replica', 'warning'],
      [
        'catalog-replicas:PodDisruptionBudget/olmv1-system/operator-controller-controller-manager:drain-blocked',
        'warning',
      ],
    ]);
    const drain = catalogReplicas.detect(snapshot, ctx).findings[1];
    expect(drain).toMatchObject({
      subject: {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        name: 'catalogd-controller-manager',
        namespace: 'olmv1-system',
      },
      title: 'Node drains will block on olmv1-system/catalogd-controller-manager',
      evidence: [
        { kind: 'field', label: 'PDB bound', path: 'spec.minAvailable', value: '1' },
        { kind: 'field', label: 'Deployment replicas', path: 'spec.replicas', value: 1 },
      ],
    });
    expect(drain.remediation.at(-1)?.command).toBe(
      'oc -n olmv1-system scale deployment/catalogd-controller-manager --replicas=2',
    );
    expect(catalogReplicas.detect(snapshot, ctx).samples).toStrictEqual({
      desired: 1,
      ready: 1,
      available: 1,
      pdbDisruptionsAllowed: 0,
      operatorControllerDesired: 1,
      operatorControllerReady: 1,
      operatorControllerAvailable: 1,
      olmUnavailableTransitions: 0,
    });
  });

  it('main says the same as v1.8.0 (minAvailable 1, unhealthyPodEvictionPolicy AlwaysAllow, 1 replica)', () => {
    const { deployments, pdbs } = upstream('main');
    expect(
      summarize(makeSnapshot({ deployments: deployments.map(healthy), poddisruptionbudgets: pdbs })),
    ).toStrictEqual(
      summarize(
        makeSnapshot({
          deployments: upstream('v1.8.0').deployments.map(healthy),
          poddisruptionbudgets: upstream('v1.8.0').pdbs,
        }),
      ),
    );
  });

  it.each(['v1.4.0', 'v1.6.0'])(
    '%s has no PDB: only the single replicas are warned (default / maxUnavailable 0 strategies are safe)',
    (tag) => {
      const { deployments, pdbs } = upstream(tag);
      expect(pdbs).toStrictEqual([]);
      expect(summarize(makeSnapshot({ deployments: deployments.map(healthy) }))).toStrictEqual([
        ['catalog-replicas:Deployment/olmv1-system/catalogd-controller-manager:single-replica', 'warning'],
        ['catalog-replicas:Deployment/olmv1-system/operator-controller-controller-manager:single-replica', 'warning'],
      ]);
    },
  );

  it('scaled to 2 replicas with a healthy PDB: nothing to report', () => {
    const { deployments, pdbs } = upstream('v1.8.0');
    const two = deployments.map((d) => healthy({ ...d, spec: { ...(d.spec as object), replicas: 2 } }));
    const withStatus = pdbs.map((p) =>
      withPdbStatus(p, { currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 2 }),
    );
    expect(summarize(makeSnapshot({ deployments: two, poddisruptionbudgets: withStatus }))).toStrictEqual([]);
  });
});

describe('catalogReplicas — real OpenShift manifests', () => {
  it.each([
    [
      '4.18/catalogd--14-deployment-openshift-catalogd-catalogd-controller-manager.yml',
      'openshift-catalogd',
      'catalogd-controller-manager',
    ],
    [
      '4.19/operator-controller--20-deployment-openshift-operator-controller-operator-controller-controller-manager.yml',
      'openshift-operator-controller',
      'operator-controller-controller-manager',
    ],
    ['4.22/catalogd--deployment.yaml', 'openshift-catalogd', 'catalogd-controller-manager'],
  ])('%s ships 1 replica', (file, ns, name) => {
    const docs = loadAll(readFileSync(join(fixtures, 'openshift', file), 'utf8')) as KubeObject[];
    const deployment = docs.find((d) => d?.kind === 'Deployment');
    expect(deployment).toBeDefined();
    expect(summarize(makeSnapshot({ deployments: [healthy(deployment!)] }))).toStrictEqual([
      [`catalog-replicas:Deployment/${ns}/${name}:single-replica`, 'warning'],
    ]);
  });
});

const NS = 'openshift-catalogd';
const NAME = 'catalogd-controller-manager';
const LABELS = { 'control-plane': NAME };
const catalogd = (replicas: number, status: { ready: number }, strategy?: object): KubeObject =>
  withDeploymentStatus(
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: NAME, namespace: NS },
      spec: {
        replicas,
        selector: { matchLabels: LABELS },
        template: { metadata: { labels: LABELS } },
        ...(strategy ? { strategy } : {}),
      },
    },
    { replicas, readyReplicas: status.ready, availableReplicas: status.ready },
  );
const pod = (name: string, ready: boolean): KubeObject =>
  makePod({
    namespace: NS,
    name,
    labels: LABELS,
    containers: [{ name: 'manager', ready, ...(ready ? {} : { waiting: { reason: 'ContainerCreating' } }) }],
  });

describe('catalogReplicas — rules', () => {
  it.each([
    [0, 1, 'critical'],
    [1, 2, 'warning'],
  ])('%i of %i ready → %s', (ready, replicas, severity) => {
    const [first] = catalogReplicas.detect(
      makeSnapshot({ deployments: [catalogd(replicas, { ready })] }),
      ctx,
    ).findings;
    expect([first.id, first.severity, first.title]).toStrictEqual([
      `catalog-replicas:Deployment/${NS}/${NAME}:not-ready`,
      severity,
      ready === 0 ? `${NAME}: no replica ready` : `${NAME}: replicas not ready`,
    ]);
  });

  it('flags a strategy that may take the only replica down', () => {
    const ids = summarize(makeSnapshot({ deployments: [catalogd(1, { ready: 1 }, { type: 'Recreate' })] })).map(
      ([id]) => id,
    );
    expect(ids).toContain(`catalog-replicas:Deployment/${NS}/${NAME}:rollout-unavailable`);
    const rolling = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    expect(summarize(makeSnapshot({ deployments: [catalogd(1, { ready: 1 }, rolling)] })).map(([id]) => id)).toContain(
      `catalog-replicas:Deployment/${NS}/${NAME}:rollout-unavailable`,
    );
  });

  it('flags a PDB at its limit while the Deployment is healthy', () => {
    const pdb = withPdbStatus(
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: NAME, namespace: NS },
        spec: { maxUnavailable: '10%', selector: { matchLabels: LABELS } },
      },
      { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 2 },
    );
    expect(
      summarize(makeSnapshot({ deployments: [catalogd(2, { ready: 2 })], poddisruptionbudgets: [pdb] })),
    ).toStrictEqual([[`catalog-replicas:PodDisruptionBudget/${NS}/${NAME}:drain-blocked`, 'warning']]);
  });

  const probe = (podName: string, status: number | null): ProbeResult => ({
    ref: { apiVersion: 'v1', kind: 'Pod', name: podName, namespace: NS },
    url: `https://${podName}:8443/catalogs/openshift-redhat-operators/api/v1/all`,
    status,
    at: '2025-03-01T09:59:30Z',
  });

  it('reports the non-leader 404 and names the leader', () => {
    const snapshot = makeSnapshot(
      {
        deployments: [catalogd(2, { ready: 2 })],
        pods: [
          pod('catalogd-controller-manager-7f9c-aaaaa', true),
          pod('catalogd-controller-manager-7f9c-bbbbb', true),
        ],
        leases: [
          makeLease({
            namespace: NS,
            name: 'catalogd-operator-lock',
            holderPod: 'catalogd-controller-manager-7f9c-aaaaa',
            renewTime: '2025-03-01T09:59:50Z',
          }),
        ],
      },
      {
        probes: [
          probe('catalogd-controller-manager-7f9c-aaaaa', 200),
          probe('catalogd-controller-manager-7f9c-bbbbb', 404),
        ],
      },
    );
    const findings = catalogReplicas.detect(snapshot, ctx).findings;
    expect(findings.map((f) => [f.id, f.severity, f.title])).toStrictEqual([
      [`catalog-replicas:Deployment/${NS}/${NAME}:probes`, 'warning', 'Some catalogd pods do not serve the catalog'],
    ]);
    expect(findings[0].evidence.map((e) => e.value)).toStrictEqual(['200 (leader)', '404 (not leader)']);
    expect(findings[0].remediation[0].command).toBe(
      `oc get --raw "/api/v1/namespaces/${NS}/pods/https:catalogd-controller-manager-7f9c-bbbbb:8443/proxy/catalogs/openshift-redhat-operators/api/v1/all" | head -c 300`,
    );
  });

  it('reports a Lease held by a pod that is gone', () => {
    const snapshot = makeSnapshot({
      deployments: [catalogd(2, { ready: 2 })],
      pods: [pod('catalogd-controller-manager-7f9c-aaaaa', true), pod('catalogd-controller-manager-7f9c-bbbbb', true)],
      leases: [
        makeLease({
          namespace: NS,
          name: 'catalogd-operator-lock',
          holderPod: 'catalogd-controller-manager-old-zzzzz',
          renewTime: '2025-03-01T09:50:00Z',
        }),
      ],
    });
    const [f] = catalogReplicas.detect(snapshot, ctx).findings;
    expect([f.id, f.severity, f.title, f.since]).toStrictEqual([
      `catalog-replicas:Lease/${NS}/catalogd-operator-lock:holder-not-ready`,
      'warning',
      'catalogd leader Lease: its holder catalogd-controller-manager-old-zzzzz no longer exists',
      '2025-03-01T09:50:00Z',
    ]);
    expect(f.summary).toContain('(expired)');
  });

  it('counts olm Available=False transitions and escalates while it is unavailable', () => {
    const olmRef = { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', name: 'olm' };
    const t = (status: string, at: string): ConditionTransition => ({
      ref: olmRef,
      type: 'Available',
      status,
      reason: status === 'False' ? 'CatalogdDeploymentCatalogdControllerManager_Deploying' : 'AsExpected',
      at,
    });
    const transitions = [
      t('False', '2025-03-01T09:00:00Z'),
      t('True', '2025-03-01T09:00:40Z'),
      t('False', '2025-03-01T09:30:00Z'),
      t('True', '2025-03-01T09:30:35Z'),
    ];
    const past = catalogReplicas.detect(
      makeSnapshot({ clusteroperators: [makeClusterOperator('olm', '4.18.1')] }, { transitions }),
      ctx,
    );
    expect(past.findings.map((f) => [f.id, f.severity, f.title, f.since])).toStrictEqual([
      [
        'catalog-replicas:ClusterOperator//olm:unavailable',
        'warning',
        'olm went Available=False during rollouts',
        '2025-03-01T09:00:00Z',
      ],
    ]);
    expect(past.samples?.olmUnavailableTransitions).toBe(2);
    const down = makeClusterOperator('olm', '4.18.1', [
      {
        type: 'Available',
        status: 'False',
        message: 'CatalogdDeploymentCatalogdControllerManagerAvailable: Waiting for Deployment',
      },
    ]);
    const now = catalogReplicas.detect(
      makeSnapshot({ clusteroperators: [down] }, { transitions: transitions.slice(0, 3) }),
      ctx,
    );
    expect(now.findings.map((f) => [f.severity, f.title, f.since])).toStrictEqual([
      ['critical', 'olm ClusterOperator is Available=False', '2025-03-01T09:30:00Z'],
    ]);
  });

  it('reports null samples when no OLMv1 Deployment is watched', () => {
    expect(catalogReplicas.detect(makeSnapshot(), ctx)).toStrictEqual({
      findings: [],
      samples: {
        desired: null,
        ready: null,
        available: null,
        pdbDisruptionsAllowed: null,
        operatorControllerDesired: null,
        operatorControllerReady: null,
        operatorControllerAvailable: null,
        olmUnavailableTransitions: 0,
      },
    });
  });
});

describe('catalogReplicas — only where the release runs OLMv1', () => {
  const { deployments, pdbs } = upstream('v1.8.0');
  // The same manifests where a release puts them (openshift-catalogd, openshift-operator-controller).
  const asRelease = (o: KubeObject): KubeObject => ({
    ...o,
    metadata: {
      ...o.metadata,
      namespace: o.metadata.name.startsWith('catalogd') ? 'openshift-catalogd' : 'openshift-operator-controller',
    },
  });
  const objects = { deployments: deployments.map(healthy).map(asRelease), poddisruptionbudgets: pdbs.map(asRelease) };
  const on = (version: string, featureSet?: string) =>
    makeSnapshot({
      ...objects,
      clusterversions: [makeClusterVersion({ desired: version, history: [{ version, state: 'Completed' }] })],
      featuregates: [
        {
          apiVersion: 'config.openshift.io/v1',
          kind: 'FeatureGate',
          metadata: { name: 'cluster' },
          spec: featureSet ? { featureSet } : {},
        },
      ],
    });

  it.each(['4.13.40', '4.14.27', '4.17.10'])(
    '%s without TechPreviewNoUpgrade: no finding, Deployments or not',
    (version) => {
      expect(summarize(on(version))).toStrictEqual([]);
    },
  );

  it("an upstream install in olmv1-system is the user's OLMv1, checked on any release", () => {
    const snapshot = makeSnapshot({
      deployments: deployments.map(healthy),
      poddisruptionbudgets: pdbs,
      clusterversions: [
        makeClusterVersion({ desired: '4.13.40', history: [{ version: '4.13.40', state: 'Completed' }] }),
      ],
    });
    expect(summarize(snapshot)).toHaveLength(4);
  });

  it.each([
    ['4.14.27', 'TechPreviewNoUpgrade'],
    ['4.18.1', undefined],
    ['4.21.0', undefined],
  ] as const)('%s %s: the same findings as without a ClusterVersion', (version, featureSet) => {
    expect(summarize(on(version, featureSet))).toStrictEqual(summarize(makeSnapshot(objects)));
    expect(summarize(on(version, featureSet))).toHaveLength(4);
  });
});
