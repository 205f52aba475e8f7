import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { MINUTE } from '../objects/time';
import { SCENARIOS } from '../scenarios/registry';
import type { ScenarioName } from '../types';
import { MONITORING_NAMESPACE, parseSelector, THANOS_QUERIER, THANOS_QUERIER_PORT } from './thanos-querier';

function start(name: ScenarioName, seed = 3) {
  const cluster = createSimulatedCluster({ seed });
  const t0 = cluster.clock.now();
  runScenario(cluster, SCENARIOS[name]!);
  const to = (ms: number) => cluster.clock.advance(t0 + ms - cluster.clock.now());
  const get = (path: string) => {
    const answer = cluster.proxy.handle('services', MONITORING_NAMESPACE, THANOS_QUERIER, THANOS_QUERIER_PORT, path)!;
    return {
      status: answer.status,
      body: answer.status === 200 || answer.status === 400 ? JSON.parse(answer.body) : answer.body,
    };
  };
  type Listed = {
    labels: Record<string, string>;
    state: string;
    activeAt: string;
    annotations: Record<string, string>;
  };
  const alerts = () => (get('/api/v1/alerts').body as { data: { alerts: Listed[] } }).data.alerts;
  const find = (alertname: string, label: string, value: string) =>
    alerts().find((a) => a.labels.alertname === alertname && a.labels[label] === value);
  return { cluster, t0, to, get, alerts, find };
}

describe('embedded cluster monitoring (thanos-querier alerts)', () => {
  it('catalogd-rollout: PodDisruptionBudgetAtLimit fires after 60 min at the limit, and clears once scaled', () => {
    const s = start('catalogd-rollout');
    s.to(30 * MINUTE);
    expect(s.find('PodDisruptionBudgetAtLimit', 'namespace', 'openshift-catalogd')?.state).toBe('pending');
    s.to(70 * MINUTE);
    const alert = s.find('PodDisruptionBudgetAtLimit', 'namespace', 'openshift-catalogd')!;
    expect(alert).toMatchObject({
      state: 'firing',
      labels: { severity: 'warning', poddisruptionbudget: expect.any(String) },
    });
    expect(alert.annotations.summary).toBe('The pod disruption budget is preventing further disruption to pods.');
    expect(Date.parse(alert.activeAt)).toBeLessThanOrEqual(s.t0 + 10 * MINUTE);
    s.to(90 * MINUTE);
    expect(s.find('PodDisruptionBudgetAtLimit', 'namespace', 'openshift-catalogd')).toBeUndefined();
  });

  it('update-in-progress: ClusterOperatorDegraded for authentication fires after 30 min Degraded', () => {
    const s = start('update-in-progress');
    s.to(20 * MINUTE);
    expect(s.find('ClusterOperatorDegraded', 'name', 'authentication')).toMatchObject({
      state: 'pending',
      labels: {
        namespace: 'openshift-cluster-version',
        reason: 'OAuthServerDeployment_UnavailablePod',
        severity: 'warning',
      },
    });
    s.to(36 * MINUTE);
    const firing = s.find('ClusterOperatorDegraded', 'name', 'authentication')!;
    expect(firing.state).toBe('firing');
    expect(firing.annotations.description).toMatch(
      /^The authentication operator is degraded because OAuthServerDeployment_UnavailablePod/,
    );
    // the same alert through the ALERTS series
    const vector = s.get(
      '/api/v1/query?query=' + encodeURIComponent('ALERTS{alertstate="firing",alertname=~"ClusterOperator.*"}'),
    );
    expect(vector.body.data.resultType).toBe('vector');
    expect(vector.body.data.result).toContainEqual({
      metric: {
        __name__: 'ALERTS',
        alertname: 'ClusterOperatorDegraded',
        alertstate: 'firing',
        name: 'authentication',
        namespace: 'openshift-cluster-version',
        reason: 'OAuthServerDeployment_UnavailablePod',
        severity: 'warning',
      },
      value: [expect.any(Number), '1'],
    });
    const forState = s.get('/api/v1/query?query=ALERTS_FOR_STATE%7Balertname%3D%22ClusterOperatorDegraded%22%7D');
    expect(Number(forState.body.data.result[0].value[1]) * 1000).toBe(Date.parse(firing.activeAt));
    s.to(41 * MINUTE);
    expect(s.find('ClusterOperatorDegraded', 'name', 'authentication')).toBeUndefined();
  });

  it('hypershift-featuregate-drop: ClusterOperatorDown for the stuck operator after 10 min Available=False', () => {
    const s = start('hypershift-featuregate-drop');
    s.to(25 * MINUTE);
    expect(s.find('ClusterOperatorDown', 'name', 'node-tuning')).toMatchObject({
      state: 'firing',
      labels: { severity: 'critical', reason: 'TunedUnavailable' },
    });
  });

  it('answers like Prometheus to queries it cannot evaluate and to unknown paths', () => {
    const s = start('steady');
    expect(s.get('/api/v1/query?query=up')).toMatchObject({
      status: 400,
      body: { status: 'error', errorType: 'bad_data' },
    });
    expect(s.get('/api/v1/query')).toMatchObject({ status: 400 });
    expect(s.get('/api/v1/targets').status).toBe(404);
    expect(s.get('/api/v1/alerts')).toMatchObject({ status: 200, body: { status: 'success', data: { alerts: [] } } });
  });

  it.each([
    ['ALERTS', { name: 'ALERTS', matchers: [] }],
    ['ALERTS{alertstate="firing"}', { name: 'ALERTS', matchers: [{ name: 'alertstate', op: '=', value: 'firing' }] }],
    [
      ' ALERTS { a != "x\\"y" , b=~"c.*" } ',
      {
        name: 'ALERTS',
        matchers: [
          { name: 'a', op: '!=', value: 'x"y' },
          { name: 'b', op: '=~', value: 'c.*' },
        ],
      },
    ],
    ['sum(ALERTS)', undefined],
    ['ALERTS{a=b}', undefined],
  ])('parseSelector(%s)', (query, expected) => {
    expect(parseSelector(query)).toEqual(expected);
  });
});
