import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { makePod, makeSnapshot, withDeploymentStatus, withPdbStatus } from '@/lib/health/testing/builders';
import { fixture, fixtureDocs, rollbackContext } from '@/server/testing/rollback-fixtures';
import { checkCatalog } from './check-catalog';

const cv = fixture('oc-upgrade/status/not-upgrading-cv.yaml');
/** The fixture runs 4.14: OLMv1 is there only with TechPreviewNoUpgrade. */
const techPreview = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'FeatureGate',
  metadata: { name: 'cluster' },
  spec: { featureSet: 'TechPreviewNoUpgrade' },
};
const upstream = fixtureDocs('olmv1/upstream/v1.8.0/deployments-and-pdbs.yaml');
const deployments = upstream.filter((d) => d.kind === 'Deployment');
const pdbs = upstream.filter((d) => d.kind === 'PodDisruptionBudget');
const ready = (d: KubeObject, replicas = (d.spec as { replicas?: number }).replicas ?? 1): KubeObject =>
  withDeploymentStatus(
    { ...d, spec: { ...(d.spec as object), replicas } },
    { replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas },
  );

describe('checkCatalog (real OLMv1 manifests)', () => {
  it('warns on the upstream v1.8.0 layout (1 replica, PDB minAvailable 1), as the cluster page does', () => {
    const result = checkCatalog(
      rollbackContext(
        makeSnapshot({
          clusterversions: [cv],
          featuregates: [techPreview],
          deployments: deployments.map((d) => ready(d)),
          poddisruptionbudgets: pdbs,
        }),
        '4.14.0',
      ),
    );
    expect(result.status).toBe('warn');
    expect(result.detail).toContain('Node drains will block on olmv1-system/catalogd-controller-manager');
    expect(result.detail).toContain('runs 1 replica');
    expect(result.remediation.map((r) => r.command)).toContain(
      'oc -n olmv1-system scale deployment/catalogd-controller-manager --replicas=2',
    );
  });

  it('passes two ready replicas with the same PDBs allowing one disruption', () => {
    const budgets = pdbs.map((p) =>
      withPdbStatus(p, { currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 2 }),
    );
    const result = checkCatalog(
      rollbackContext(
        makeSnapshot({
          clusterversions: [cv],
          featuregates: [techPreview],
          deployments: deployments.map((d) => ready(d, 2)),
          poddisruptionbudgets: budgets,
        }),
        '4.14.0',
      ),
    );
    expect(result.status).toBe('pass');
  });

  it('warns on the OpenShift 4.20 catalogd Deployment without a PDB when not all replicas are ready', () => {
    const catalogd = fixtureDocs(
      'olmv1/openshift/4.20/catalogd--18-deployment-openshift-catalogd-catalogd-controller-manager.yml',
    )[0];
    const notReady = withDeploymentStatus(catalogd, {
      replicas: 1,
      readyReplicas: 0,
      availableReplicas: 0,
      updatedReplicas: 1,
    });
    const result = checkCatalog(
      rollbackContext(
        makeSnapshot({ clusterversions: [cv], featuregates: [techPreview], deployments: [notReady] }),
        '4.14.0',
      ),
    );
    expect(result.status).toBe('warn');
    expect(result.detail).toContain('has 0 of 1 replicas ready');
  });

  it('blocks the same layout while the node running the catalogd pod is cordoned (a drain is stuck now)', () => {
    const catalogd = deployments.find((d) => d.metadata.name === 'catalogd-controller-manager')!;
    const { labels } = (catalogd.spec as { template: { metadata: { labels: Record<string, string> } } }).template
      .metadata;
    const pod = makePod({
      name: 'catalogd-controller-manager-abc',
      namespace: 'olmv1-system',
      labels,
      nodeName: 'worker-1',
      containers: [{ name: 'manager' }],
    });
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' }, spec: { unschedulable: true } };
    const snapshot = makeSnapshot({
      clusterversions: [cv],
      featuregates: [techPreview],
      deployments: deployments.map((d) => ready(d)),
      poddisruptionbudgets: pdbs,
      pods: [pod],
      nodes: [node],
    });
    const result = checkCatalog(rollbackContext(snapshot, '4.14.0'));
    expect(result.status).toBe('block');
    expect(result.detail).toContain('Node worker-1 is cordoned with its pod on it');
  });

  it('passes a cluster without OLMv1', () => {
    expect(checkCatalog(rollbackContext(makeSnapshot({ clusterversions: [cv] }), '4.14.0')).status).toBe('pass');
  });

  it("passes a 4.14 cluster without TechPreviewNoUpgrade even if the release's OLMv1 Deployments are seen", () => {
    const catalogd = fixtureDocs(
      'olmv1/openshift/4.20/catalogd--18-deployment-openshift-catalogd-catalogd-controller-manager.yml',
    )[0];
    const snapshot = makeSnapshot({ clusterversions: [cv], deployments: [ready(catalogd)] });
    expect(checkCatalog(rollbackContext(snapshot, '4.14.0'))).toMatchObject({
      status: 'pass',
      title: 'No OLMv1 on this release',
    });
  });

  it('checks an upstream install (olmv1-system) on any release', () => {
    const snapshot = makeSnapshot({
      clusterversions: [cv],
      deployments: deployments.map((d) => ready(d)),
      poddisruptionbudgets: pdbs,
    });
    expect(checkCatalog(rollbackContext(snapshot, '4.14.0')).status).toBe('warn');
  });
});
