import { updateStateOfHealth } from '@/lib/cluster/update-state';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { clusterHealthSchema, type ClusterHealthDto, type ClusterSeriesDto } from '@/lib/api/dto';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { DETECTORS } from '@/lib/health/registry';
import type { KubeObject } from '@/lib/k8s/types';
import { makeContext, makeSnapshot, withDeploymentStatus } from '@/lib/health/testing/builders';
import { CLUSTER_VERSION_ACCESS, checkKey, describeAccess, type AccessAnswers, type AccessCheck } from './access-check';
import { derivedViewAccess } from './derived-views';
import { clusterVisible, healthAccess, visibleHealth, visibleSeries, visibleSummary } from './visible-health';

const fixtures = join(import.meta.dirname, '../../server/fixtures');
const yaml = (path: string): KubeObject => load(readFileSync(join(fixtures, path), 'utf8')) as KubeObject;
const items = (path: string): KubeObject[] => (yaml(path) as unknown as { items: KubeObject[] }).items;

/**
 * A real 4.14.1 ClusterVersion (mid-update, with its real ClusterOperators, MachineConfigPools and Nodes) against
 * the real 4.13 CRD (a status-write rejection) and the real OLMv1 catalogd manifests, assessed as the API serves it.
 */
function realHealth(): ClusterHealthDto {
  const cv = yaml('oc-upgrade/status/4.14.1-degraded-cv.yaml');
  const olm = loadAll(
    readFileSync(join(fixtures, 'olmv1/upstream/v1.8.0/deployments-and-pdbs.yaml'), 'utf8'),
  ) as KubeObject[];
  const deployments = olm
    .filter((d) => d?.kind === 'Deployment')
    .map((d) => withDeploymentStatus(d, { replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 }));
  const snapshot = makeSnapshot({
    clusterversions: [cv],
    clusteroperators: items('oc-upgrade/status/4.14.1-degraded-co.yaml'),
    machineconfigpools: items('oc-upgrade/status/4.14.1-degraded-mcp.yaml'),
    machineconfigs: items('oc-upgrade/status/4.14.1-degraded-mc.yaml'),
    nodes: items('oc-upgrade/status/4.14.1-degraded-node.yaml'),
    customresourcedefinitions: [yaml('openshift-api/crds/clusterversion/4.13.yaml')],
    deployments,
    poddisruptionbudgets: olm.filter((d) => d?.kind === 'PodDisruptionBudget'),
  });
  const { health } = assessCluster({
    id: 'c1',
    name: 'c1',
    snapshot,
    context: makeContext('2023-11-03T18:00:00Z'),
    alertEvidence: { kind: 'alerts', alerts: [] },
    sources: [
      { resource: 'clusterversions', status: 'synced', since: '2023-11-03T17:00:00Z' },
      { resource: 'pods', namespace: 'olmv1-system', status: 'synced', since: '2023-11-03T17:00:00Z' },
    ],
  });
  return clusterHealthSchema.parse(health);
}

/** RBAC as a namespace `view` binding in olmv1-system gives it: read anything in that namespace, nothing cluster-scoped. */
const namespaceViewer =
  (namespace: string): AccessAnswers =>
  (check: AccessCheck) =>
    check.namespace === namespace && check.group !== '*';
const everything: AccessAnswers = () => true;
const nothing: AccessAnswers = () => false;

describe("visibility of a real cluster's health by RBAC", () => {
  const health = realHealth();
  const nodeName = items('oc-upgrade/status/4.14.1-degraded-node.yaml')[0].metadata.name;

  it('the real objects produce a ClusterVersion finding and namespace-scoped catalogd findings', () => {
    expect(health.findings.map((f) => f.id)).toEqual(
      expect.arrayContaining([
        'status-write-rejection:ClusterVersion//version:enum',
        'catalog-replicas:PodDisruptionBudget/olmv1-system/catalogd-controller-manager:drain-blocked',
      ]),
    );
  });

  it('a cluster reader sees everything, unchanged', () => {
    expect(visibleHealth(health, everything)).toBe(health);
  });

  it("a namespace viewer sees the namespace's findings, no ClusterVersion data, and what would show the rest", () => {
    const seen = visibleHealth(health, namespaceViewer('olmv1-system'));
    expect(seen.findings.length).toBeGreaterThan(0);
    expect(seen.findings.every((f) => f.subject.namespace === 'olmv1-system')).toBe(true);
    expect(seen.findings.some((f) => f.detector === 'status-write-rejection')).toBe(false);
    expect(seen.cluster).toMatchObject({ version: null, desiredVersion: null, channel: null, history: [] });
    expect(seen.access).toEqual({
      hiddenFindings: health.findings.length - seen.findings.length,
      clusterVersion: false,
      missing: expect.arrayContaining([
        'get clusterversions.config.openshift.io',
        'get customresourcedefinitions.apiextensions.k8s.io',
      ]),
      hiddenViews: {
        updateProgress: expect.arrayContaining(['list nodes']),
        updateRecommendations: expect.arrayContaining(['get clusterversions.config.openshift.io']),
        rollbackPlan: expect.arrayContaining(['list clusteroperators.config.openshift.io']),
      },
    });
    expect(seen.updateProgress).toBeNull();
    expect(seen.updateRecommendations).toBeNull();
    expect(seen.sources.map((s) => s.resource)).toEqual(['pods']);
    expect(JSON.stringify(seen)).not.toContain('stable-4.14');
    const row = visibleSummary(health, namespaceViewer('olmv1-system'));
    expect(row.findingCounts.critical).toBe(0);
    expect(row.version).toBeNull();
  });

  it("counts in a viewer's row only the sources the viewer may read, behind or synced", () => {
    const behind = {
      ...health,
      sources: [
        {
          resource: 'clusterversions',
          status: 'stale' as const,
          since: '2023-11-03T16:00:00Z',
          error: { message: 'EOF' },
        },
        { resource: 'nodes', status: 'pending' as const, since: '2023-11-03T16:30:00Z' },
        { resource: 'pods', namespace: 'olmv1-system', status: 'synced' as const, since: '2023-11-03T17:00:00Z' },
      ],
    };
    expect(visibleSummary(behind, namespaceViewer('olmv1-system')).sources).toEqual({
      total: 1,
      synced: 1,
      behind: [],
      since: '2023-11-03T17:00:00Z',
    });
    const all = visibleSummary(behind, everything).sources;
    expect(all).toMatchObject({ total: 3, synced: 1, since: '2023-11-03T16:00:00Z' });
    expect(all.behind.map((s) => s.resource)).toEqual(['clusterversions', 'nodes']);
    expect(visibleSummary(behind, nothing).sources).toEqual({ total: 0, synced: 0, behind: [] });
  });

  it('the real update has progress (nodes, operators) and recommendations whose predictions quote the PDB finding', () => {
    expect(health.updateProgress?.updating).toBe(true);
    expect(JSON.stringify(health.updateProgress)).toContain(nodeName);
    expect(JSON.stringify(health.updateRecommendations?.predictions)).toContain('catalogd-controller-manager');
  });

  it('get clusterversion alone shows version facts and nothing derived from objects the viewer cannot read', () => {
    const onlyVersion: AccessAnswers = (check) => checkKey(check) === checkKey(CLUSTER_VERSION_ACCESS);
    const seen = visibleHealth(health, onlyVersion);
    expect(seen.cluster.version).toBe(health.cluster.version);
    expect(seen.updateProgress).toBeNull();
    expect(seen.updateRecommendations).toBeNull();
    // The update-progress summary restates the progress (operator health, worker pools) under the ClusterVersion's
    // name only, so it goes with the progress; the status-write rejection also cites the CRD.
    expect(seen.findings.map((f) => f.id)).toEqual([]);
    expect(health.findings.some((f) => f.id === 'update-progress/summary')).toBe(true);
    expect(seen.access?.hiddenViews?.updateProgress).toEqual(
      expect.arrayContaining(['list nodes', 'list machineconfigpools.machineconfiguration.openshift.io']),
    );
    expect(seen.access?.hiddenViews?.updateRecommendations).toEqual(
      expect.arrayContaining(['list poddisruptionbudgets.policy']),
    );
    expect(seen.access?.hiddenViews?.rollbackPlan).toEqual(
      expect.arrayContaining(['get featuregates.config.openshift.io']),
    );
    // The update state is built from pools, nodes and operators: withheld with them, and said to be unknown, not idle.
    expect(seen.updateState).toBeUndefined();
    const state = updateStateOfHealth(seen);
    expect(state.phase).toBe('unknown');
    expect(state.unknownReason).toContain('list nodes');
    expect(visibleSummary(health, onlyVersion).updatePhase).toBe('unknown');
    const sent = JSON.stringify(seen);
    for (const secret of [nodeName, 'catalogd-controller-manager', 'olmv1-system', 'machine-config'])
      expect(sent).not.toContain(secret);
    expect(seen.access?.missing.join(' ')).not.toContain('"');
  });

  it('a viewer who may read every input of the derived views sees them unchanged, and nothing is said hidden', () => {
    const allButEverything: AccessAnswers = (check) => check.group !== '*';
    const seen = visibleHealth(health, allButEverything);
    expect(seen.updateProgress).toEqual(health.updateProgress);
    expect(seen.updateRecommendations).toEqual(health.updateRecommendations);
    expect(seen.access).toMatchObject({ clusterVersion: true, missing: [] });
    expect(seen.access?.hiddenViews).toBeUndefined();
  });

  it("declares what each derived view reads, and asks those questions with the health's", () => {
    const views = derivedViewAccess(health);
    expect(Object.keys(views)).toEqual(['updateProgress', 'updateRecommendations', 'rollbackPlan']);
    expect(views.updateProgress?.map(describeAccess)).toEqual(expect.arrayContaining(['list nodes', 'list pods']));
    const asked = new Set(healthAccess(health, DETECTORS).map(checkKey));
    for (const check of Object.values(views).flat()) expect(asked.has(checkKey(check))).toBe(true);
  });

  it('a cluster is visible to a viewer who may list anything its detectors read, and to nobody else', () => {
    expect(clusterVisible(health, DETECTORS, namespaceViewer('olmv1-system'))).toBe(true);
    expect(clusterVisible(health, DETECTORS, namespaceViewer('some-other-namespace'))).toBe(false);
    expect(clusterVisible(health, DETECTORS, nothing)).toBe(false);
  });

  it('asks each question once, the everything-check first', () => {
    const checks = healthAccess(health, DETECTORS);
    expect(new Set(checks.map(checkKey)).size).toBe(checks.length);
    expect(checks.slice(0, 2).map(describeAccess)).toEqual(['get *.*', 'list *.*']);
  });

  it('series keep only detectors the viewer could read entirely, and transitions of readable objects', () => {
    const series: ClusterSeriesDto = {
      clusterId: 'c1',
      now: 0,
      samples: {
        'catalog-replicas': [{ t: 1, values: { ready: 1 } }],
        'update-progress': [{ t: 1, values: { percent: 50 } }],
      },
      transitions: [
        {
          ref: { kind: 'ClusterVersion', name: 'version' },
          type: 'Progressing',
          status: 'True',
          at: '2023-11-03T17:00:00Z',
        },
        {
          ref: { kind: 'Deployment', name: 'catalogd-controller-manager', namespace: 'olmv1-system' },
          type: 'Available',
          status: 'False',
          at: '2023-11-03T17:00:00Z',
        },
      ],
    };
    const seen = visibleSeries(
      series,
      DETECTORS,
      (check) => check.namespace === 'olmv1-system' || check.namespace === 'openshift-catalogd',
    );
    expect(Object.keys(seen.samples)).toEqual([]);
    expect(seen.transitions.map((t) => t.ref.kind)).toEqual(['Deployment']);
    expect(visibleSeries(series, DETECTORS, everything)).toBe(series);
  });
});
