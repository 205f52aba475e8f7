/**
 * Rules of update progress that oc's examples do not exercise: operator thresholds, alerts, node states and helpers.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { computeUpdateProgress, type UpdateProgressInput } from '@/lib/health/update-progress/update-progress';
import type { Alert } from '@/lib/health/update-progress/types';
import { formatShortDuration, roundPercent } from '@/lib/health/update-progress/util';

const T0 = Date.parse('2025-01-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const min = 60_000;

function cv(): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    status: {
      desired: { version: '4.16.1' },
      conditions: [
        { type: 'Progressing', status: 'True', lastTransitionTime: iso(T0) },
        { type: 'Failing', status: 'False', lastTransitionTime: iso(T0) },
      ],
      history: [
        { state: 'Partial', version: '4.16.1', startedTime: iso(T0) },
        {
          state: 'Completed',
          version: '4.16.0',
          startedTime: iso(T0 - 300 * min),
          completionTime: iso(T0 - 240 * min),
        },
        {
          state: 'Completed',
          version: '4.15.9',
          startedTime: iso(T0 - 900 * min),
          completionTime: iso(T0 - 880 * min),
        },
      ],
    },
  };
}

function co(name: string, version: string, conditions: Record<string, [string, number]>): KubeObject {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name, annotations: { 'include.release.openshift.io/self-managed-high-availability': 'true' } },
    status: {
      versions: [{ name: 'operator', version }],
      conditions: Object.entries(conditions).map(([type, [status, at]]) => ({
        type,
        status,
        reason: `${type}Reason`,
        message: `${type} message`,
        lastTransitionTime: iso(at),
      })),
    },
  };
}

function input(operators: KubeObject[], alerts?: Alert[]): UpdateProgressInput {
  return {
    clusterVersion: cv(),
    clusterOperators: operators,
    machineConfigPools: [],
    machineConfigs: [],
    nodes: [],
    alerts,
  };
}

describe('ClusterOperator thresholds', () => {
  const now = T0 + 60 * min;
  const level = (operator: KubeObject) =>
    computeUpdateProgress(input([operator]), now)
      .insights.filter((insight) => insight.subject?.kind === 'ClusterOperator')
      .map((insight) => `${insight.level}:${insight.message}`);

  it('unavailable: > 5 min warning, > 20 min error', () => {
    expect(level(co('a', '4.16.0', { Available: ['False', now - 4 * min] }))).toEqual([]);
    expect(level(co('a', '4.16.0', { Available: ['False', now - 6 * min] }))).toEqual([
      'Warning:Cluster Operator a is unavailable (AvailableReason)',
    ]);
    expect(level(co('a', '4.16.0', { Available: ['False', now - 21 * min] }))).toEqual([
      'Error:Cluster Operator a is unavailable (AvailableReason)',
    ]);
  });

  it('degraded: > 5 min warning, > 40 min error', () => {
    const degraded = (age: number) =>
      co('b', '4.16.0', { Available: ['True', T0], Degraded: ['True', now - age * min] });
    expect(level(degraded(4))).toEqual([]);
    expect(level(degraded(39))).toEqual(['Warning:Cluster Operator b is degraded (DegradedReason)']);
    expect(level(degraded(41))).toEqual(['Error:Cluster Operator b is degraded (DegradedReason)']);
  });

  it('counts updated, updating and waiting operators and their health', () => {
    const progress = computeUpdateProgress(
      input([
        co('done', '4.16.1', { Available: ['True', T0], Progressing: ['False', T0 + min] }),
        co('moving', '4.16.0', { Available: ['True', T0], Progressing: ['True', T0 + 2 * min] }),
        co('idle', '4.16.0', { Available: ['True', T0], Progressing: ['False', T0], Degraded: ['True', T0] }),
        co('silent', '4.16.0', {}),
        { ...co('addon', '4.16.0', {}), metadata: { name: 'addon' } },
      ]),
      T0 + 3 * min,
    );
    expect(progress.controlPlane.operators).toEqual({ updated: 1, updating: 1, waiting: 1, total: 4 });
    expect(progress.controlPlane.health).toEqual({ healthy: 2, unavailable: 1, degraded: 1 });
    expect(progress.controlPlane.completionPercent).toBe(25);
    expect(progress.controlPlane.updatingOperators).toEqual(['moving']);
    expect(progress.controlPlane.previousVersion).toBe('4.16.0');
    expect(progress.controlPlane.durationSeconds).toBe(180);
  });

  it('estimates from the previous update and calls it stalled more than 10 minutes past the estimate', () => {
    const operators = [co('a', '4.16.0', { Available: ['True', T0], Progressing: ['False', T0] })];
    expect(computeUpdateProgress(input(operators), T0 + 10 * min).controlPlane).toMatchObject({
      assessment: 'Progressing',
      estimatedRemainingSeconds: 60 * 60,
      estimateLabel: '1h',
    });
    const late = computeUpdateProgress(input(operators), T0 + 90 * min).controlPlane;
    expect(late).toMatchObject({
      assessment: 'Stalled',
      estimatedRemainingSeconds: null,
      estimateLabel: 'N/A; estimate duration was 1h5m',
    });
  });
});

describe('machine-config operator image', () => {
  const mco = (image: string): KubeObject => {
    const operator = co('machine-config', '4.16.1', { Available: ['True', T0], Progressing: ['False', T0 + min] });
    (operator.status as { versions: unknown[] }).versions.push({ name: 'operator-image', version: image });
    return operator;
  };
  const deployment = (image: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'machine-config-operator', namespace: 'openshift-machine-config-operator' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'kube-rbac-proxy', image: 'proxy' },
            { name: 'machine-config-operator', image },
          ],
        },
      },
    },
  });
  const updated = (mcoDeployment?: KubeObject) =>
    computeUpdateProgress({ ...input([mco('mco@sha256:new')]), mcoDeployment }, T0 + 2 * min).controlPlane.operators
      .updated;

  it('counts machine-config as updated only once it reports the image its Deployment runs', () => {
    expect(updated(deployment('mco@sha256:new'))).toBe(1);
    expect(updated(deployment('mco@sha256:next'))).toBe(0);
  });

  it('judges machine-config by version alone when the Deployment is not known', () => {
    expect(updated()).toBe(1);
  });
});

describe('alerts', () => {
  const now = T0 + 30 * min;
  const alert = (name: string, startsAt: number, extra: Partial<Alert> = {}): Alert => ({
    name,
    state: 'firing',
    severity: 'warning',
    startsAt: iso(startsAt),
    labels: { namespace: 'ns' },
    annotations: { summary: `${name} summary`, description: `${name} description`, runbook_url: 'https://runbooks/x' },
    ...extra,
  });
  const messages = (alerts: Alert[]) =>
    computeUpdateProgress(input([], alerts), now)
      .insights.filter((insight) => insight.subject?.kind === 'Alert')
      .map((insight) => `${insight.level}:${insight.message}`);

  it('includes alerts that started during the update, and PDB alerts whenever firing', () => {
    expect(
      messages([
        alert('Old', T0 - min),
        alert('New', T0 + min),
        alert('PodDisruptionBudgetAtLimit', T0 - 60 * min),
        alert('PodDisruptionBudgetLimit', T0 - 60 * min, { severity: 'critical' }),
      ]),
    ).toEqual([
      'Error:Alert is firing: PodDisruptionBudgetLimit summary',
      'Warning:Alert is firing: New summary',
      'Warning:Alert is firing: PodDisruptionBudgetAtLimit summary',
    ]);
  });

  it('skips pending and info alerts', () => {
    expect(
      messages([alert('Pending', T0 + min, { state: 'pending' }), alert('Info', T0 + min, { severity: 'info' })]),
    ).toEqual([]);
  });
});

describe('nodes and pools', () => {
  const mc = (name: string, version: string): KubeObject => ({
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name, annotations: { 'machineconfiguration.openshift.io/release-image-version': version } },
  });
  const pool = (name: string, config: string, paused = false): KubeObject => ({
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name },
    spec: {
      paused,
      configuration: { name: config },
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${name}`]: '' } },
    },
  });
  const node = (
    name: string,
    role: string,
    current: string,
    desired: string,
    state: string,
    ready = 'True',
    reason = '',
  ): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { [`node-role.kubernetes.io/${role}`]: '' },
      annotations: {
        'machineconfiguration.openshift.io/currentConfig': current,
        'machineconfiguration.openshift.io/desiredConfig': desired,
        'machineconfiguration.openshift.io/state': state,
        'machineconfiguration.openshift.io/reason': reason,
      },
    },
    status: { conditions: [{ type: 'Ready', status: ready, lastTransitionTime: iso(T0 - 30 * min) }] },
  });

  it('assesses updated, updating, degraded and unavailable nodes', () => {
    const progress = computeUpdateProgress(
      {
        ...input([co('a', '4.16.1', { Available: ['True', T0] })]),
        machineConfigPools: [pool('master', 'new-m'), pool('worker', 'new-w')],
        machineConfigs: [mc('old-m', '4.16.0'), mc('new-m', '4.16.1'), mc('old-w', '4.16.0'), mc('new-w', '4.16.1')],
        nodes: [
          node('master-0', 'master', 'new-m', 'new-m', 'Done'),
          node('worker-0', 'worker', 'old-w', 'new-w', 'Rebooting'),
          node('worker-1', 'worker', 'old-w', 'new-w', 'Degraded', 'True', 'failed on worker-1'),
          node('worker-2', 'worker', 'old-w', 'old-w', 'Done', 'False'),
        ],
      },
      T0 + 10 * min,
    );
    expect(progress.updating).toBe(true);
    expect(progress.controlPlane.nodes.map((n) => [n.name, n.assessment, n.phase, n.version])).toEqual([
      ['master-0', 'Completed', 'Updated', '4.16.1'],
    ]);
    expect(progress.controlPlane.nodesCompletionPercent).toBe(100);
    const worker = progress.workerPools[0];
    expect(worker.nodes.map((n) => [n.name, n.assessment, n.phase, n.message])).toEqual([
      ['worker-1', 'Degraded', 'Updating', 'failed on <node>'],
      ['worker-2', 'Unavailable', 'Pending', 'Not ready'],
      ['worker-0', 'Progressing', 'Rebooting', ''],
    ]);
    expect(worker).toMatchObject({ assessment: 'Degraded', completionPercent: 0, degradedNodes: 1, availableNodes: 1 });
    expect(progress.insights.map((i) => i.message)).toEqual([
      'Node worker-1 is degraded',
      'Node worker-2 is not ready',
    ]);
  });
});

describe('helpers', () => {
  it('formats durations like oc', () => {
    expect([0, 6, 89, 840, 3600, 3617, 7140].map(formatShortDuration)).toEqual([
      'now',
      '6s',
      '1m29s',
      '14m',
      '1h',
      '1h0m17s',
      '1h59m',
    ]);
  });

  it('rounds percentages like Go %.0f', () => {
    expect([96.97, 12.5, 13.5, 42.857].map(roundPercent)).toEqual([97, 12, 14, 43]);
  });
});
