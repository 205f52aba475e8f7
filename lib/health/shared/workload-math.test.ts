import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { isLeaseRenewal, leaseHolder } from './workload-math';

/**
 * The machine-config-controller's leader-election record from the OCP 4.8.11 must-gather in server/fixtures
 * (openshift-machine-config-operator/core/configmaps.yaml, from openshift/must-gather-clean), as client-go's Lease
 * lock writes the same record (LeaderElectionRecordToLeaseSpec: leaderTransitions becomes leaseTransitions).
 */
const LEASE: KubeObject = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: {
    name: 'machine-config-controller',
    namespace: 'openshift-machine-config-operator',
    uid: '3f0c2d0e-5b1a-4f7e-9c1d-6a2b8e4f0a11',
    resourceVersion: '48210',
    creationTimestamp: '2021-09-13T14:40:03Z',
    managedFields: [
      {
        manager: 'machine-config-controller',
        operation: 'Update',
        apiVersion: 'coordination.k8s.io/v1',
        time: '2021-09-13T15:32:57Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:holderIdentity': {}, 'f:renewTime': {} } },
      },
    ],
  },
  spec: {
    holderIdentity: 'machine-config-controller-7c4975f766-8fcwj_8a4c46b7-5dec-4f78-a349-088ec1a5b920',
    leaseDurationSeconds: 90,
    acquireTime: '2021-09-13T15:01:56.000000Z',
    renewTime: '2021-09-13T15:32:57.000000Z',
    leaseTransitions: 2,
  },
};

type Change = { spec?: Record<string, unknown>; metadata?: Record<string, unknown> };

function changed(lease: KubeObject, change: Change): KubeObject {
  return {
    ...lease,
    metadata: { ...lease.metadata, ...change.metadata },
    spec: { ...(lease.spec as object), ...change.spec },
  };
}

/** What the holder writes when it renews: a later renewTime, a new resourceVersion, its managedFields time. */
function renewed(lease: KubeObject, renewTime: string): KubeObject {
  const [entry] = lease.metadata.managedFields ?? [];
  return changed(lease, {
    spec: { renewTime },
    metadata: {
      resourceVersion: String(Number(lease.metadata.resourceVersion) + 7),
      managedFields: [{ ...entry, time: renewTime.replace(/\.\d+Z$/, 'Z') }],
    },
  });
}

describe('isLeaseRenewal', () => {
  it('is true for a renewal by the same holder (renewTime, resourceVersion and managedFields moved)', () => {
    const next = renewed(LEASE, '2021-09-13T15:33:23.114221Z');
    expect(isLeaseRenewal(LEASE, next)).toBe(true);
    // Renewals follow one another; the holder and its expiry math are unchanged but for the later renewal.
    expect(isLeaseRenewal(next, renewed(next, '2021-09-13T15:33:49.402117Z'))).toBe(true);
    expect(leaseHolder(next, Date.parse('2021-09-13T15:34:00Z'))?.expired).toBe(false);
  });

  it('is true whatever order the keys come in', () => {
    const spec = LEASE.spec as Record<string, unknown>;
    const reordered: KubeObject = {
      spec: Object.fromEntries(Object.entries(spec).reverse()),
      metadata: Object.fromEntries(Object.entries(LEASE.metadata).reverse()) as KubeObject['metadata'],
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
    };
    expect(isLeaseRenewal(reordered, renewed(LEASE, '2021-09-13T15:33:23Z'))).toBe(true);
  });

  it('is false when the holder changed, the lease was released or the holder re-acquired it', () => {
    const later = '2021-09-13T15:35:10.000000Z';
    const holder = 'machine-config-controller-7c4975f766-q2bzk_0e1f6a0c-7d2e-4b55-8a90-1c3d5e7f9b24';
    expect(isLeaseRenewal(LEASE, renewed(changed(LEASE, { spec: { holderIdentity: holder } }), later))).toBe(false);
    expect(isLeaseRenewal(LEASE, renewed(changed(LEASE, { spec: { holderIdentity: '' } }), later))).toBe(false);
    expect(isLeaseRenewal(LEASE, renewed(changed(LEASE, { spec: { holderIdentity: undefined } }), later))).toBe(false);
    expect(isLeaseRenewal(LEASE, renewed(changed(LEASE, { spec: { leaseTransitions: 3 } }), later))).toBe(false);
    expect(isLeaseRenewal(LEASE, renewed(changed(LEASE, { spec: { acquireTime: later } }), later))).toBe(false);
  });

  it('is false when anything but the renewal changed: duration, other spec fields, labels, a new object', () => {
    const later = '2021-09-13T15:33:23.000000Z';
    const cases: Change[] = [
      { spec: { leaseDurationSeconds: 137 } },
      { spec: { preferredHolder: 'machine-config-controller-7c4975f766-q2bzk' } },
      { spec: { strategy: 'OldestEmulationVersion' } },
      { metadata: { labels: { team: 'mco' } } },
      { metadata: { uid: '9d8c7b6a-5e4f-4a3b-8c2d-1e0f9a8b7c6d' } },
      { metadata: { deletionTimestamp: later } },
    ];
    for (const change of cases) {
      expect(isLeaseRenewal(LEASE, renewed(changed(LEASE, change), later)), JSON.stringify(change)).toBe(false);
    }
  });

  it('is false when renewTime did not move forward, is missing or unreadable', () => {
    expect(isLeaseRenewal(LEASE, renewed(LEASE, '2021-09-13T15:32:57.000000Z'))).toBe(false);
    expect(isLeaseRenewal(LEASE, renewed(LEASE, '2021-09-13T15:30:00.000000Z'))).toBe(false);
    expect(isLeaseRenewal(LEASE, renewed(LEASE, 'soon'))).toBe(false);
    const unrenewed = changed(LEASE, { spec: { renewTime: undefined } });
    expect(isLeaseRenewal(unrenewed, renewed(LEASE, '2021-09-13T15:33:23Z'))).toBe(false);
  });

  it('is false without a previous Lease, or for another kind or group', () => {
    const next = renewed(LEASE, '2021-09-13T15:33:23Z');
    expect(isLeaseRenewal(undefined, next)).toBe(false);
    expect(isLeaseRenewal({ ...LEASE, kind: 'ConfigMap' }, { ...next, kind: 'ConfigMap' })).toBe(false);
    const elsewhere = { apiVersion: 'example.com/v1' };
    expect(isLeaseRenewal({ ...LEASE, ...elsewhere }, { ...next, ...elsewhere })).toBe(false);
  });
});
