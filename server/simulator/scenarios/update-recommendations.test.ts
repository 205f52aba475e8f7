/**
 * The embedded clusters answer "is it safe to update?" with real-shaped data: the CVO lists available and
 * conditional updates (risks and matching rules as in real ClusterVersions), monitoring serves the alerts oc's
 * prechecks read, and our predictions block a target when a catalog PodDisruptionBudget would refuse the drains.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { RESOURCE_NAMES } from '@/lib/k8s/resources';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { predictionsFor, updateCommand } from '@/lib/recommend/update-command';
import { formatRecommend } from '@/lib/recommend/format-recommend';
import { parseAlerts } from '@/server/metrics/alerts';
import { createSimulatedCluster, runScenario } from '../core';
import { MONITORING_NAMESPACE, THANOS_QUERIER, THANOS_QUERIER_PORT } from '../monitoring/thanos-querier';
import { MINUTE } from '../objects/time';
import { SCENARIOS } from './registry';
import type { ScenarioName } from '../types';

/** Health of a scenario at `minutes`, with the alerts its thanos-querier answers, as the live engine assesses it. */
function healthAt(name: ScenarioName, minutes: number): ClusterHealthDto {
  const cluster = createSimulatedCluster({ seed: 3 });
  const t0 = cluster.clock.now();
  runScenario(cluster, SCENARIOS[name]!);
  while (cluster.clock.now() < t0 + minutes * MINUTE) cluster.clock.advance(10_000);
  const answer = cluster.proxy.handle(
    'services',
    MONITORING_NAMESPACE,
    THANOS_QUERIER,
    THANOS_QUERIER_PORT,
    '/api/v1/alerts',
  )!;
  const objects = Object.fromEntries(
    RESOURCE_NAMES.map((r) => [r, cluster.store.list(r).map((e) => structuredClone(e.object))]).filter(
      ([, l]) => l.length,
    ),
  );
  const snapshot = makeSnapshot(objects, { alerts: parseAlerts(JSON.parse(answer.body)) });
  return assessCluster({
    id: name,
    name,
    snapshot,
    context: { now: cluster.clock.now(), config: DEFAULT_HEALTH_CONFIG },
    sources: [],
  }).health;
}

describe('update recommendations of the embedded clusters', () => {
  it('steady: newer 4.16 z-streams of stable-4.16 only, real risks of their blocked edges, commands offered', () => {
    const rec = healthAt('steady', 2).updateRecommendations!;
    expect(rec.channel).toBe('stable-4.16');
    const versions = rec.updates.map((u) => u.version);
    // stable-4.16 lists no 4.17 release; nothing older than the running 4.16.8 is offered
    expect(versions.every((v) => /^4\.16\.(\d+)$/.test(v) && Number(v.split('.')[2]) > 8)).toBe(true);
    expect(versions.slice(0, 3)).toEqual(['4.16.55', '4.16.54', '4.16.53']);
    const reasons = new Map(rec.updates.map((u) => [u.version, u.recommended ? 'ok' : u.reason]));
    // Always risks apply; the PromQL ones are beyond the embedded querier, so the CVO reports EvaluationFailed
    expect(reasons.get('4.16.53')).toBe('RuncShareProcessNamespace');
    expect(reasons.get('4.16.49')).toBe('MultipleReasons');
    expect(reasons.get('4.16.46')).toBe('EvaluationFailed');
    expect(rec.updates.find((u) => u.version === '4.16.46')).toMatchObject({ recommendedStatus: 'Unknown' });
    for (const z of [37, 36, 35, 34, 33, 32]) {
      expect(reasons.get(`4.16.${z}`)).toBe('LabeledMachineConfigAndContainerRuntimeConfigBlocksMCO');
    }
    expect(rec.updates.filter((u) => !u.conditional).every((u) => u.recommended)).toBe(true);
    expect(reasons.get('4.16.55')).toBe('ok');
    expect(rec.updates.find((u) => u.version === '4.16.53')).toMatchObject({
      conditional: true,
      risks: [{ name: 'RuncShareProcessNamespace', matchingRules: ['Always'] }],
    });
    expect(rec.prechecks.every((p) => p.status === 'True' && p.reason === 'AsExpected')).toBe(true);
    expect(rec.updates.flatMap((u) => predictionsFor(rec, u)).filter((p) => p.status === 'block')).toEqual([]);
    expect(updateCommand(rec.updates[0], predictionsFor(rec, rec.updates[0]))).toBe('oc adm upgrade --to 4.16.55');
    expect(formatRecommend(rec, { showOutdatedReleases: true }).stdout).toContain(
      '4.16.53     RuncShareProcessNamespace',
    );
  });

  it('extension-install-flap after an hour: PodDisruptionBudgetAtLimit fails a precheck, and we block on the same PDB', () => {
    const rec = healthAt('extension-install-flap', 61).updateRecommendations!;
    const failing = rec.prechecks.filter((p) => p.status === 'False');
    expect(failing.map((p) => p.name)).toEqual(['recommended/PodDisruptionBudgetAlerts/PodDisruptionBudgetAtLimit/0']);
    expect(failing[0].message).toContain(
      'Namespace=openshift-operator-controller, PodDisruptionBudget=operator-controller-controller-manager.',
    );
    for (const target of rec.updates) {
      expect(predictionsFor(rec, target).find((p) => p.check === 'catalog-drain')).toMatchObject({
        status: 'block',
        title: 'Node drains will block on openshift-operator-controller/operator-controller-controller-manager',
      });
      expect(updateCommand(target, predictionsFor(rec, target))).toBeNull();
    }
  });

  it('update-in-progress: every target waits for the running update', () => {
    const rec = healthAt('update-in-progress', 3).updateRecommendations!;
    expect(rec.clusterConditions.find((c) => c.type === 'Progressing')?.status).toBe('True');
    expect(rec.updates.length).toBeGreaterThan(0);
    expect(
      rec.updates.every((u) =>
        predictionsFor(rec, u).some((p) => p.check === 'update-in-progress' && p.status === 'block'),
      ),
    ).toBe(true);
  });
});
