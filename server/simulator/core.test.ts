import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock';
import { createSimulatedCluster } from './core';
import { installBaseCrds, installCrd, loadCrd } from './crds';
import { testClusterVersion, testNamespace, testPod } from './test-objects';
import { ApiStatusError } from './types';

function statusOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiStatusError) return error.status;
    throw error;
  }
  throw new Error('expected an ApiStatusError');
}

describe('ManualClock', () => {
  it('fires timers in time then insertion order, including ones scheduled inside the window', () => {
    const clock = new ManualClock(0);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push('b@10'), 10);
    clock.setTimeout(() => {
      seen.push('a@5');
      clock.setTimeout(() => seen.push('c@8'), 3);
    }, 5);
    clock.setTimeout(() => seen.push('d@10'), 10);
    const cancel = clock.setInterval(() => seen.push(`i@${clock.now()}`), 4);
    clock.advance(10);
    cancel();
    clock.advance(100);
    expect(seen).toEqual(['i@4', 'a@5', 'i@8', 'c@8', 'b@10', 'd@10']);
    expect(clock.now()).toBe(110);
  });
});

describe('simulated cluster core', () => {
  it('bumps resourceVersion and generation and keeps one managedFields entry per manager and subresource', () => {
    const cluster = createSimulatedCluster({ seed: 7 });
    installBaseCrds(cluster.client, { clusterVersionRelease: '4.14' });
    const cvo = cluster.as('cluster-version-operator');
    const created = cvo.create('clusterversions', testClusterVersion());
    expect(created.metadata.generation).toBe(1);
    expect(created.metadata.creationTimestamp).toBe('2026-11-22T09:00:00Z');
    cluster.clock.advance(5_000);
    const status = cvo.patch(
      'clusterversions',
      'version',
      { status: { versionHash: 'zzz' } },
      { subresource: 'status' },
    );
    expect(status.metadata.generation).toBe(1);
    expect(Number(status.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    const spec = cluster.as('kubectl-edit').patch('clusterversions', 'version', { spec: { channel: 'fast-4.14' } });
    expect(spec.metadata.generation).toBe(2);
    const again = cvo.patch(
      'clusterversions',
      'version',
      { status: { versionHash: 'yyy' } },
      { subresource: 'status' },
    );
    const managers = again.metadata.managedFields?.map((entry) => `${entry.manager}/${entry.subresource ?? ''}`);
    expect(managers).toEqual(['cluster-version-operator/', 'kubectl-edit/', 'cluster-version-operator/status']);
    expect(again.metadata.managedFields?.[2].time).toBe('2026-11-22T09:00:05Z');
    // A no-op write keeps the resourceVersion.
    expect(
      cvo.patch('clusterversions', 'version', { status: { versionHash: 'yyy' } }, { subresource: 'status' }).metadata
        .resourceVersion,
    ).toBe(again.metadata.resourceVersion);
  });

  it('validates against the currently installed CRD', () => {
    const cluster = createSimulatedCluster();
    installBaseCrds(cluster.client, { clusterVersionRelease: '4.14' });
    cluster.client.create('clusterversions', testClusterVersion());
    const patch = { status: { capabilities: { enabledCapabilities: ['MachineAPI'] } } };
    cluster.client.patch('clusterversions', 'version', patch, { subresource: 'status' });
    installCrd(cluster.client, loadCrd('ClusterVersion', '4.13'));
    const status = statusOf(() =>
      cluster.client.patch(
        'clusterversions',
        'version',
        { status: { capabilities: { enabledCapabilities: ['MachineAPI', 'Console', 'Build'] } } },
        { subresource: 'status' },
      ),
    );
    expect(status.code).toBe(422);
    expect(status.reason).toBe('Invalid');
    expect(status.details?.causes).toHaveLength(2);
    expect(status.message).toBe(
      'ClusterVersion.config.openshift.io "version" is invalid: [status.capabilities.enabledCapabilities[0]: Unsupported value: "MachineAPI": supported values: "openshift-samples", "baremetal", "marketplace", "Console", "Insights", "Storage", "CSISnapshot", "NodeTuning", status.capabilities.enabledCapabilities[2]: Unsupported value: "Build": supported values: "openshift-samples", "baremetal", "marketplace", "Console", "Insights", "Storage", "CSISnapshot", "NodeTuning"]',
    );
  });

  it('answers 404 and 409 with real Status bodies, and lists with selectors', () => {
    const cluster = createSimulatedCluster();
    expect(statusOf(() => cluster.client.delete('clusterversions', 'x')).message).toBe(
      'clusterversions.config.openshift.io "x" not found',
    );
    cluster.client.create('namespaces', testNamespace('a'));
    const pod = cluster.client.create('pods', testPod('a', 'p1', { node: 'n1' }));
    cluster.client.create('pods', testPod('a', 'p2', { node: 'n2', labels: { app: 'x', tier: 'web' } }));
    cluster.client.update('pods', { ...pod, metadata: { ...pod.metadata, labels: { app: 'y' } } });
    const conflict = statusOf(() => cluster.client.update('pods', pod));
    expect(conflict.code).toBe(409);
    expect(conflict.message).toBe(
      'Operation cannot be fulfilled on pods "p1": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(cluster.client.list('pods', { labelSelector: 'app in (x,y),tier!=db' }).map((p) => p.metadata.name)).toEqual(
      ['p1', 'p2'],
    );
    expect(cluster.client.list('pods', { labelSelector: '!tier' }).map((p) => p.metadata.name)).toEqual(['p1']);
    expect(cluster.client.list('pods', { fieldSelector: 'spec.nodeName=n2' }).map((p) => p.metadata.name)).toEqual([
      'p2',
    ]);
    const merged = cluster.client.patch(
      'pods',
      'p1',
      { spec: { containers: [{ name: 'main', image: 'new' }] } },
      { namespace: 'a', type: 'strategic' },
    );
    expect((merged.spec as { containers: { image: string; ports?: unknown[] }[] }).containers[0]).toMatchObject({
      image: 'new',
      ports: [{ containerPort: 8080 }],
    });
  });
});
