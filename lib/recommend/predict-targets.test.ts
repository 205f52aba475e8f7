import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { makeSnapshot, withDeploymentStatus, withPdbStatus } from '@/lib/health/testing/builders';
import { fixture, fixtureDocs } from '@/server/testing/rollback-fixtures';
import { computeRecommendations } from './recommend';
import { withPredictions } from './predict-targets';
import { predictionsFor, updateCommand } from './update-command';

const cv = fixture('oc-upgrade/recommend/examples/4.16.27-degraded-monitoring-cv.yaml');
const updating = fixture('oc-upgrade/recommend/examples/4.14.1-all-recommended-cv.yaml');
const upstream = fixtureDocs('olmv1/upstream/v1.8.0/deployments-and-pdbs.yaml');
const ready = (d: KubeObject, replicas: number): KubeObject =>
  withDeploymentStatus({ ...d, spec: { ...(d.spec as object), replicas } }, { replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas });
const deployments = (replicas: number) => upstream.filter((d) => d.kind === 'Deployment').map((d) => ready(d, replicas));
const pdbs = (allowed: number) => upstream.filter((d) => d.kind === 'PodDisruptionBudget')
  .map((p) => withPdbStatus(p, { currentHealthy: 1 + allowed, desiredHealthy: 1, disruptionsAllowed: allowed, expectedPods: 1 + allowed }));
const featureGate = (versions: string[]): KubeObject => ({
  apiVersion: 'config.openshift.io/v1', kind: 'FeatureGate', metadata: { name: 'cluster' },
  status: { featureGates: versions.map((version) => ({ version, enabled: [], disabled: [] })) },
});

function predict(objects: Parameters<typeof makeSnapshot>[0], clusterVersion: KubeObject = cv) {
  const recommendations = computeRecommendations(clusterVersion, { kind: 'alerts', alerts: [] });
  return withPredictions(recommendations, makeSnapshot({ clusterversions: [clusterVersion], ...objects }));
}

describe('withPredictions', () => {
  it('blocks every target while a catalog PDB refuses drains (real upstream OLMv1 layout: 1 replica, minAvailable 1)', () => {
    const result = predict({ deployments: deployments(1), poddisruptionbudgets: pdbs(0), featuregates: [featureGate(['4.16.27'])] });
    for (const target of result.updates) {
      const drain = predictionsFor(result, target).find((p) => p.check === 'catalog-drain');
      expect(drain).toMatchObject({ status: 'block' });
      expect(drain?.title).toContain('Node drains will block on olmv1-system/catalogd-controller-manager');
      expect(updateCommand(target, predictionsFor(result, target))).toBeNull();
    }
  });

  it('passes two replicas whose PDBs allow a disruption, and offers the oc command', () => {
    const result = predict({ deployments: deployments(2), poddisruptionbudgets: pdbs(1), featuregates: [featureGate(['4.16.27', '4.16.20'])] });
    const newest = result.updates[0];
    expect(predictionsFor(result, newest).map((p) => `${p.check}=${p.status}`)).toEqual(['update-in-progress=pass', 'catalog-drain=pass', 'featuregate=pass', 'capabilities=pass']);
    expect(updateCommand(newest, predictionsFor(result, newest))).toBe('oc adm upgrade --to 4.16.32');
    // Predictions holding for every target are sent once; each target carries only its own.
    expect(result.predictions?.map((p) => p.check)).toEqual(['update-in-progress', 'catalog-drain', 'featuregate']);
    expect(newest.predictions?.map((p) => p.check)).toEqual(['capabilities']);
  });

  it('blocks when FeatureGate status lacks the running version', () => {
    const result = predict({ featuregates: [featureGate(['4.16.20'])] });
    expect(result.predictions?.find((p) => p.check === 'featuregate')).toMatchObject({ status: 'block', title: 'FeatureGate status lacks 4.16.27' });
  });

  it('blocks while an update is in progress (Progressing=True)', () => {
    const result = predict({}, updating);
    expect(result.predictions?.find((p) => p.check === 'update-in-progress')?.detail).toContain('Working towards 4.14.1');
  });

  it('adds --allow-not-recommended for a target oc has concerns about', () => {
    expect(updateCommand({ version: '4.19.4', image: 'x', recommended: false, recommendedStatus: 'False', conditional: true, risks: [], predictions: [] }, []))
      .toBe('oc adm upgrade --to 4.19.4 --allow-not-recommended');
  });
});
