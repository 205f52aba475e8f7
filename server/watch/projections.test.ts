import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { compactManagedFields, projectObject, LAST_APPLIED_ANNOTATION } from './projections';

const managedFields = [
  {
    manager: 'cluster-version-operator',
    operation: 'Update',
    time: '2026-11-22T08:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:spec': {} },
  },
  {
    manager: 'cluster-version-operator',
    operation: 'Update',
    subresource: 'status',
    time: '2026-11-22T08:10:00Z',
    fieldsV1: { 'f:status': {} },
  },
  {
    manager: 'cluster-version-operator',
    operation: 'Update',
    subresource: 'status',
    time: '2026-11-22T08:30:00Z',
    fieldsV1: { 'f:status': {} },
  },
  { manager: 'kubectl-edit', operation: 'Update', time: '2026-11-22T07:00:00Z', fieldsV1: {} },
];

function pod(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'etcd-0',
      namespace: 'openshift-etcd',
      uid: 'u1',
      resourceVersion: '42',
      labels: { app: 'etcd' },
      annotations: { 'k8s.ovn.org/pod-networks': '{"default":{}}' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'm0', uid: 'n1', controller: true }],
      managedFields,
    },
    spec: {
      nodeName: 'm0',
      containers: [{ name: 'etcd', image: 'x', env: [{ name: 'A', value: 'b' }] }],
      volumes: [{ name: 'v' }],
    },
    status: {
      phase: 'Running',
      podIP: '10.0.0.1',
      conditions: [
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: 't', lastProbeTime: null },
      ],
      containerStatuses: [
        {
          name: 'etcd',
          ready: false,
          restartCount: 7,
          image: 'x',
          imageID: 'sha',
          state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
          lastState: {
            terminated: {
              reason: 'Error',
              message: 'boom',
              exitCode: 1,
              finishedAt: 'f',
              startedAt: 's',
              containerID: 'cri-o://x',
            },
          },
        },
      ],
    },
  };
}

describe('projections', () => {
  it('compacts managedFields to the latest write per manager and subresource', () => {
    expect(compactManagedFields(managedFields)).toEqual([
      { manager: 'cluster-version-operator', time: '2026-11-22T08:00:00Z' },
      { manager: 'cluster-version-operator', subresource: 'status', time: '2026-11-22T08:30:00Z' },
      { manager: 'kubectl-edit', time: '2026-11-22T07:00:00Z' },
    ]);
    expect(compactManagedFields(undefined)).toBeUndefined();
  });

  it('keeps only the fields detectors and the UI read from a pod', () => {
    const projected = projectObject('pods', pod());
    expect(projected).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'etcd-0',
        namespace: 'openshift-etcd',
        uid: 'u1',
        resourceVersion: '42',
        labels: { app: 'etcd' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'm0', uid: 'n1', controller: true }],
      },
      spec: { nodeName: 'm0', containers: [{ name: 'etcd' }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: 't' }],
        containerStatuses: [
          {
            name: 'etcd',
            ready: false,
            restartCount: 7,
            state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s' } },
            lastState: {
              terminated: { reason: 'Error', message: 'boom', exitCode: 1, finishedAt: 'f', startedAt: 's' },
            },
          },
        ],
      },
    });
  });

  it('keeps the event fields and drops the rest', () => {
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace: 'ns', resourceVersion: '5', managedFields },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u', resourceVersion: '3' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      type: 'Warning',
      count: 12,
      firstTimestamp: 'a',
      lastTimestamp: 'b',
      eventTime: null,
      source: { component: 'kubelet', host: 'm0' },
      reportingInstance: 'm0',
    };
    expect(projectObject('events', event)).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace: 'ns', resourceVersion: '5' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns', uid: 'u' },
      reason: 'BackOff',
      message: 'Back-off restarting failed container',
      type: 'Warning',
      count: 12,
      firstTimestamp: 'a',
      lastTimestamp: 'b',
      source: { component: 'kubelet', host: 'm0' },
    });
  });

  it('keeps other kinds whole minus managedFields field sets and the last-applied annotation, without mutating the input', () => {
    const cv: KubeObject = {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterVersion',
      metadata: {
        name: 'version',
        annotations: { [LAST_APPLIED_ANNOTATION]: '{"secret":1}', keep: 'me' },
        managedFields,
      },
      spec: { channel: 'stable-4.14' },
      status: { desired: { version: '4.14.10' } },
    };
    const projected = projectObject('clusterversions', cv);
    expect(projected.metadata.annotations).toEqual({ keep: 'me' });
    expect(projected.metadata.managedFields).toHaveLength(3);
    expect(projected.spec).toEqual(cv.spec);
    expect(projected.status).toEqual(cv.status);
    expect(cv.metadata.managedFields).toBe(managedFields);
    expect(cv.metadata.annotations?.[LAST_APPLIED_ANNOTATION]).toBeDefined();
  });

  it('drops the large fields no detector reads from nodes (images, volumes), MachineConfigs and ClusterOperators', () => {
    const node = projectObject('nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'm0' },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        images: [{ names: ['a'], sizeBytes: 1 }],
        volumesInUse: ['kubernetes.io/csi/disk.csi.azure.com^pv-1'],
        volumesAttached: [{ name: 'kubernetes.io/csi/disk.csi.azure.com^pv-1', devicePath: '' }],
      },
    });
    expect(node.status).toEqual({ conditions: [{ type: 'Ready', status: 'True' }] });
    const mc = projectObject('machineconfigs', {
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name: 'rendered-master-1', annotations: { v: '4.14.1' } },
      spec: { config: { ignition: { version: '3.4.0' } } },
    });
    expect(mc).toEqual({
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      metadata: { name: 'rendered-master-1', annotations: { v: '4.14.1' } },
    });
    const co = projectObject('clusteroperators', {
      apiVersion: 'config.openshift.io/v1',
      kind: 'ClusterOperator',
      metadata: { name: 'dns' },
      status: { versions: [{ name: 'operator', version: '4.14.1' }], relatedObjects: [{ resource: 'namespaces' }] },
    });
    expect(co.status).toEqual({ versions: [{ name: 'operator', version: '4.14.1' }] });
  });
});

describe('ClusterVersion update lists', () => {
  const release = (version: string) => ({
    version,
    image: `quay.io/openshift-release-dev/ocp-release@sha256:${version}`,
    url: `https://access.redhat.com/errata/${version}`,
  });
  const clusterVersion = (name: string, versions: string[]): KubeObject => ({
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', uid: name, resourceVersion: '1' },
    status: {
      desired: release('4.16.1'),
      availableUpdates: versions.map(release),
      conditionalUpdates: versions.map((version) => ({
        release: release(version),
        risks: [
          { name: 'Risk', message: 'a known issue', url: 'https://issues/1', matchingRules: [{ type: 'Always' }] },
        ],
        conditions: [{ type: 'Recommended', status: 'False', reason: 'Risk', message: 'a known issue' }],
      })),
    },
  });
  const status = (object: KubeObject) => object.status as Record<string, unknown>;

  it('are one shared, frozen copy for every cluster offered the same updates', () => {
    const a = projectObject('clusterversions', clusterVersion('a', ['4.16.2', '4.16.3']));
    const b = projectObject('clusterversions', clusterVersion('b', ['4.16.2', '4.16.3']));
    const c = projectObject('clusterversions', clusterVersion('c', ['4.16.2']));
    const input = status(clusterVersion('x', ['4.16.2', '4.16.3']));
    expect(status(a).availableUpdates).toEqual(input.availableUpdates);
    expect(status(a).conditionalUpdates).toEqual(input.conditionalUpdates);
    expect(status(b).availableUpdates).toBe(status(a).availableUpdates);
    expect(status(b).conditionalUpdates).toBe(status(a).conditionalUpdates);
    expect(status(c).conditionalUpdates).not.toBe(status(a).conditionalUpdates);
    expect(status(c).conditionalUpdates).toHaveLength(1);
    // shared across clusters, so nobody may change them in place
    const shared = status(a).conditionalUpdates as { risks: unknown[] }[];
    expect(Object.isFrozen(shared) && Object.isFrozen(shared[0]) && Object.isFrozen(shared[0].risks)).toBe(true);
    expect(Object.isFrozen(a) || Object.isFrozen(a.status)).toBe(false);
  });

  it('are kept as they came when they are not lists', () => {
    const odd = clusterVersion('d', []);
    (odd.status as Record<string, unknown>).availableUpdates = null;
    expect(status(projectObject('clusterversions', odd)).availableUpdates).toBeNull();
  });
});
