import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeUpdateProgress, updateProgressInputFromSnapshot } from '@/lib/health/update-progress/update-progress';
import { analyzeOffline } from './analyze-offline';
import { classifyEntry } from './entry-path';
import { readOffline } from './read-offline';

const OC_STATUS = join(process.cwd(), 'server/fixtures/oc-upgrade/status');

describe('classifyEntry', () => {
  it.each([
    [
      'mg/quay-io-x/cluster-scoped-resources/config.openshift.io/clusterversions.yaml',
      { kind: 'resource', resource: 'clusterversions' },
    ],
    [
      'cluster-scoped-resources/config.openshift.io/clusteroperators/dns.yaml',
      { kind: 'resource', resource: 'clusteroperators' },
    ],
    ['cluster-scoped-resources/core/nodes/master-0.yaml', { kind: 'resource', resource: 'nodes' }],
    ['cluster-scoped-resources/operator.openshift.io/etcds/cluster.yaml', { kind: 'skip' }],
    ['namespaces/ns/core/pods.yaml', { kind: 'resource', resource: 'pods' }],
    ['namespaces/ns/core/configmaps.yaml', { kind: 'skip' }],
    ['namespaces/ns/core/configmaps/kube-root-ca.crt.yaml', { kind: 'skip' }],
    ['namespaces/clusters-a/core/configmaps/feature-gate.yaml', { kind: 'resource', resource: 'configmaps' }],
    [
      'namespaces/clusters/hypershift.openshift.io/hostedclusters/a.yaml',
      { kind: 'resource', resource: 'hostedclusters' },
    ],
    ['namespaces/ns/apps/deployments/web.yaml', { kind: 'resource', resource: 'deployments' }],
    ['namespaces/ns/events.k8s.io/events/e1.yaml', { kind: 'skip' }],
    ['namespaces/ns/ns.yaml', { kind: 'resource', resource: 'namespaces' }],
    ['namespaces/ns/pods/p-1/p-1.yaml', { kind: 'resource', resource: 'pods' }],
    [
      'namespaces/ns/pods/p-1/c/c/logs/current.log',
      { kind: 'log', namespace: 'ns', pod: 'p-1', container: 'c', previous: false },
    ],
    [
      'namespaces/ns/pods/p-1/c/c/logs/previous.log',
      { kind: 'log', namespace: 'ns', pod: 'p-1', container: 'c', previous: true },
    ],
    ['namespaces/ns/pods/p-1/c/c/logs/previous.insecure.log', { kind: 'skip' }],
    ['must-gather.local.1/quay-io-x/timestamp', { kind: 'timestamp' }],
    [
      'history/clusterversions-version/03-20230308T114240-36561d043d.yaml',
      { kind: 'history', at: Date.parse('2023-03-08T11:42:40Z') },
    ],
    ['quay-io-x/monitoring/alerts.json', { kind: 'alerts' }],
    ['dumps/cv.yaml', { kind: 'document' }],
    ['host_service_logs/kubelet.log', { kind: 'skip' }],
  ])('%s', (path, expected) => {
    expect(classifyEntry(path)).toEqual(expected);
  });
});

describe('collector', () => {
  it('keeps the newest resourceVersion of duplicates and infers item kinds of typed lists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'offline-collector-'));
    try {
      await writeFile(
        join(dir, 'a.yaml'),
        [
          'apiVersion: config.openshift.io/v1\nkind: ClusterOperatorList\nitems:',
          '- metadata: {name: dns, resourceVersion: "7"}\n  status: {conditions: [{type: Available, status: "True", lastTransitionTime: "2024-01-01T00:00:00Z"}]}',
          '---\napiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata: {name: dns, resourceVersion: "5"}',
          '---\napiVersion: config.openshift.io/v1beta1\nkind: Widget\nmetadata: {name: w}',
          '---\napiVersion: other.io/v1\nkind: ClusterOperator\nmetadata: {name: impostor}',
        ].join('\n'),
      );
      const offline = await readOffline([join(dir, 'a.yaml')]);
      expect(
        offline.snapshot.objects.clusteroperators?.map((co) => [co.metadata.name, co.metadata.resourceVersion]),
      ).toEqual([['dns', '7']]);
      expect(offline.resources).toEqual(['clusteroperators']);
      expect(offline.now).toBe(Date.parse('2024-01-01T00:00:00Z'));
      expect(offline.snapshot.transitions).toEqual([
        expect.objectContaining({ type: 'Available', at: '2024-01-01T00:00:00Z' }),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('feeds alerts from an `oc adm inspect-alerts` JSON into the update progress', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'offline-alerts-'));
    try {
      const alerts = join(dir, 'alerts.json');
      await writeFile(
        alerts,
        JSON.stringify({
          status: 'success',
          data: {
            alerts: [
              {
                labels: {
                  alertname: 'PodDisruptionBudgetAtLimit',
                  severity: 'warning',
                  namespace: 'ns',
                  poddisruptionbudget: 'web',
                },
                annotations: { summary: 'The pod disruption budget is preventing further disruption to pods.' },
                state: 'firing',
                activeAt: '2023-01-01T00:00:00Z',
                value: '1',
              },
            ],
          },
        }),
      );
      const files = ['cv', 'co', 'mc', 'mcp', 'node'].map((suffix) =>
        join(OC_STATUS, `4.14.1-degraded-${suffix}.yaml`),
      );
      const { health, offline } = await analyzeOffline([...files, alerts]);
      expect(offline.alerts.map((alert) => alert.name)).toEqual(['PodDisruptionBudgetAtLimit']);
      const expected = computeUpdateProgress(
        { ...updateProgressInputFromSnapshot(offline.snapshot), alerts: offline.alerts },
        offline.now,
      );
      expect(health.updateProgress).toEqual(expected);
      expect(
        health.updateProgress?.insights.some(
          (insight) =>
            insight.message === 'Alert is firing: The pod disruption budget is preventing further disruption to pods.',
        ),
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
