import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { makeSnapshot, withDeploymentStatus, withPdbStatus } from '@/lib/health/testing/builders';
import { fixture, fixtureDocs } from '@/server/testing/rollback-fixtures';
import { computeRecommendations } from './recommend';
import { withPredictions } from './predict-targets';
import {
  UPGRADEABLE_FALSE_RISK,
  commandWithheld,
  defaultTarget,
  predictionsFor,
  riskToAcknowledge,
  updateCommand,
} from './update-command';

const cv = fixture('oc-upgrade/recommend/examples/4.16.27-degraded-monitoring-cv.yaml');
const updating = fixture('oc-upgrade/recommend/examples/4.14.1-all-recommended-cv.yaml');
const upstream = fixtureDocs('olmv1/upstream/v1.8.0/deployments-and-pdbs.yaml');
const ready = (d: KubeObject, replicas: number): KubeObject =>
  withDeploymentStatus(
    { ...d, spec: { ...(d.spec as object), replicas } },
    { replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas },
  );
const deployments = (replicas: number) =>
  upstream.filter((d) => d.kind === 'Deployment').map((d) => ready(d, replicas));
const pdbs = (allowed: number) =>
  upstream
    .filter((d) => d.kind === 'PodDisruptionBudget')
    .map((p) =>
      withPdbStatus(p, {
        currentHealthy: 1 + allowed,
        desiredHealthy: 1,
        disruptionsAllowed: allowed,
        expectedPods: 1 + allowed,
      }),
    );
const featureGate = (versions: string[]): KubeObject => ({
  apiVersion: 'config.openshift.io/v1',
  kind: 'FeatureGate',
  metadata: { name: 'cluster' },
  status: { featureGates: versions.map((version) => ({ version, enabled: [], disabled: [] })) },
});

function predict(objects: Parameters<typeof makeSnapshot>[0], clusterVersion: KubeObject = cv) {
  const recommendations = computeRecommendations(clusterVersion, { kind: 'alerts', alerts: [] });
  return withPredictions(recommendations, makeSnapshot({ clusterversions: [clusterVersion], ...objects }));
}

describe('withPredictions', () => {
  it('blocks every target while a catalog PDB refuses drains (real upstream OLMv1 layout: 1 replica, minAvailable 1)', () => {
    const result = predict({
      deployments: deployments(1),
      poddisruptionbudgets: pdbs(0),
      featuregates: [featureGate(['4.16.27'])],
    });
    for (const target of result.updates) {
      const drain = predictionsFor(result, target).find((p) => p.check === 'catalog-drain');
      expect(drain).toMatchObject({ status: 'block' });
      expect(drain?.title).toContain('Node drains will block on olmv1-system/catalogd-controller-manager');
      expect(updateCommand(target, predictionsFor(result, target))).toBeNull();
    }
  });

  it('passes two replicas whose PDBs allow a disruption, and offers the oc command', () => {
    const result = predict({
      deployments: deployments(2),
      poddisruptionbudgets: pdbs(1),
      featuregates: [featureGate(['4.16.27', '4.16.20'])],
    });
    const newest = result.updates[0];
    expect(predictionsFor(result, newest).map((p) => `${p.check}=${p.status}`)).toEqual([
      'update-in-progress=pass',
      'catalog-drain=pass',
      'featuregate=pass',
      'capabilities=pass',
    ]);
    expect(updateCommand(newest, predictionsFor(result, newest))).toBe('oc adm upgrade --to 4.16.32');
    // Predictions holding for every target are sent once; each target carries only its own.
    expect(result.predictions?.map((p) => p.check)).toEqual(['update-in-progress', 'catalog-drain', 'featuregate']);
    expect(newest.predictions?.map((p) => p.check)).toEqual(['capabilities']);
  });

  it('blocks when FeatureGate status lacks the running version', () => {
    const result = predict({ featuregates: [featureGate(['4.16.20'])] });
    expect(result.predictions?.find((p) => p.check === 'featuregate')).toMatchObject({
      status: 'block',
      title: 'FeatureGate status lacks 4.16.27',
    });
  });

  it('blocks while an update is in progress (Progressing=True)', () => {
    const result = predict({}, updating);
    expect(result.predictions?.find((p) => p.check === 'update-in-progress')?.detail).toContain(
      'Working towards 4.14.1',
    );
  });

  it('adds --allow-not-recommended for a target oc has concerns about only once its risk is acknowledged', () => {
    const risky = {
      version: '4.19.4',
      image: 'x',
      recommended: false,
      recommendedStatus: 'False' as const,
      reason: 'R',
      conditional: true,
      risks: [],
      predictions: [],
    };
    expect(updateCommand(risky, [])).toBeNull();
    expect(riskToAcknowledge(risky)).toBe('Recommended=False (R)');
    expect(updateCommand(risky, [], { acknowledged: true })).toBe('oc adm upgrade --to 4.19.4 --allow-not-recommended');
  });

  it('offers no command while an update is in progress or its state is unknown, nor for a minor blocked by Upgradeable=False', () => {
    const z = {
      version: '4.16.12',
      image: 'x',
      recommended: true,
      recommendedStatus: 'True' as const,
      conditional: false,
      risks: [],
      predictions: [],
    };
    expect(updateCommand(z, [], { state: { phase: 'idle', label: 'Idle' } })).toBe('oc adm upgrade --to 4.16.12');
    expect(
      updateCommand(z, [], { state: { phase: 'updating-workers', label: 'Updating workers to 4.16.9' } }),
    ).toBeNull();
    expect(updateCommand(z, [], { state: { phase: 'unknown', label: 'Update state unknown' } })).toBeNull();
    const minor = {
      ...z,
      version: '4.17.4',
      recommended: false,
      recommendedStatus: 'False' as const,
      risks: [{ name: UPGRADEABLE_FALSE_RISK, message: 'm', url: 'u', matchingRules: ['Always'] }],
    };
    expect(updateCommand(minor, [], { acknowledged: true })).toBeNull();
    expect(commandWithheld(minor, [], null)).toEqual([expect.stringContaining('Upgradeable=False')]);
  });

  it('preselects the newest recommended target, never a not-recommended one', () => {
    const t = (version: string, recommended: boolean) => ({
      version,
      image: 'x',
      recommended,
      recommendedStatus: recommended ? ('True' as const) : ('False' as const),
      conditional: false,
      risks: [],
    });
    expect(defaultTarget([t('4.17.4', false), t('4.16.12', true), t('4.16.11', true)])?.version).toBe('4.16.12');
    expect(defaultTarget([t('4.17.4', false)])).toBeUndefined();
  });
});
