import { describe, expect, it } from 'vitest';
import type { Detector } from '@/lib/health/types';
import { DETECTORS, requiredLogs, requiredResources } from '@/lib/health/registry';

const fake = (id: Detector['id'], needs: Detector['needs'], logs?: Detector['logs']): Detector => ({
  id,
  title: id,
  insight: { impactType: 'None', scopeType: 'Cluster', referenceUrl: 'https://example.invalid' },
  needs,
  ...(logs ? { logs } : {}),
  detect: () => ({ findings: [] }),
});

describe('DETECTORS', () => {
  it('lists every detector once', () => {
    expect(DETECTORS.map((d) => d.id)).toStrictEqual([
      'update-progress',
      'featuregate-coverage',
      'status-write-rejection',
      'catalog-replicas',
      'pod-setup-latency',
      'install-settling',
      'hosted-control-plane',
      'node-drain',
    ]);
  });

  it('watches the HyperShift objects and only the feature-gate ConfigMaps of hosted control planes', () => {
    const needs = requiredResources(DETECTORS);
    for (const resource of ['hostedclusters', 'nodepools', 'hostedcontrolplanes', 'controlplanecomponents'] as const) {
      expect(needs).toContainEqual({ resource, optional: true });
    }
    expect(needs.filter((n) => n.resource === 'configmaps')).toStrictEqual([
      { resource: 'configmaps', name: 'feature-gate' },
    ]);
  });

  it("watches only the ClusterVersion CRD, never every CRD, and only the catalog namespaces' and the machine-config-operator's Deployments", () => {
    const needs = requiredResources(DETECTORS);
    expect(needs.filter((n) => n.resource === 'customresourcedefinitions')).toStrictEqual([
      { resource: 'customresourcedefinitions', name: 'clusterversions.config.openshift.io' },
    ]);
    expect(needs.filter((n) => n.resource === 'deployments')).toStrictEqual([
      { resource: 'deployments', namespace: 'openshift-machine-config-operator', name: 'machine-config-operator' },
      { resource: 'deployments', namespace: 'openshift-catalogd' },
      { resource: 'deployments', namespace: 'olmv1-system' },
      { resource: 'deployments', namespace: 'openshift-operator-controller' },
    ]);
    const keys = needs.map((n) => `${n.resource}/${n.namespace ?? ''}/${n.name ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('polls the cluster-version operator and operator-controller logs', () => {
    expect(requiredLogs(DETECTORS)).toStrictEqual([
      {
        namespace: 'openshift-cluster-version',
        labelSelector: 'k8s-app=cluster-version-operator',
        container: 'cluster-version-operator',
        tailLines: 200,
      },
      {
        namespace: 'openshift-operator-controller',
        labelSelector: 'control-plane=operator-controller-controller-manager',
        container: 'manager',
        tailLines: 300,
      },
    ]);
  });
});

describe('requiredResources / requiredLogs', () => {
  it('lets a wider need absorb narrower ones, whatever the order', () => {
    const detectors = [
      fake('featuregate-coverage', [
        { resource: 'pods', namespace: 'a' },
        { resource: 'featuregates', name: 'cluster' },
        { resource: 'leases', namespace: 'b', name: 'l' },
      ]),
      fake('catalog-replicas', [
        { resource: 'pods' },
        { resource: 'featuregates', name: 'cluster' },
        { resource: 'leases', namespace: 'b' },
      ]),
    ];
    expect(requiredResources(detectors)).toStrictEqual([
      { resource: 'featuregates', name: 'cluster' },
      { resource: 'pods' },
      { resource: 'leases', namespace: 'b' },
    ]);
  });

  it('keeps a need optional only when every detector needing the resource says so', () => {
    const detectors = [
      fake('featuregate-coverage', [
        { resource: 'hostedclusters', optional: true },
        { resource: 'pods', optional: true },
      ]),
      fake('catalog-replicas', [{ resource: 'hostedclusters', optional: true }, { resource: 'pods' }]),
    ];
    expect(requiredResources(detectors)).toStrictEqual([
      { resource: 'hostedclusters', optional: true },
      { resource: 'pods' },
    ]);
  });

  it('merges identical log needs, keeping the largest tail', () => {
    const log = { namespace: 'ns', labelSelector: 'app=x', container: 'c', tailLines: 50 };
    const detectors = [
      fake('install-settling', [], [log]),
      fake(
        'catalog-replicas',
        [],
        [
          { ...log, tailLines: 200 },
          { ...log, container: 'd' },
        ],
      ),
    ];
    expect(requiredLogs(detectors)).toStrictEqual([
      { ...log, tailLines: 200 },
      { ...log, container: 'd' },
    ]);
  });
});
