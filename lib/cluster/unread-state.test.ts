/** A live cluster's update state before its ClusterVersion was ever read says so, not that the cluster has none. */
import { describe, expect, it } from 'vitest';
import type { SourceStateDto } from '@/lib/api/dto';
import { assessCluster } from './assess-cluster';
import { makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { unreadCause } from './update-state';

const NOW = '2026-01-01T00:00:00Z';
const source = (status: SourceStateDto['status'], lastSyncAt?: string): SourceStateDto => ({
  resource: 'clusterversions',
  status,
  since: NOW,
  ...(lastSyncAt ? { lastSyncAt } : {}),
});

function labelWith(sources: SourceStateDto[], origin?: 'must-gather'): string {
  const snapshot = makeSnapshot({});
  const { health } = assessCluster({ id: 'a', name: 'a', snapshot, context: makeContext(NOW), sources, origin });
  return health.updateState!.label;
}

describe('an update state with no ClusterVersion', () => {
  it('is unread before the ClusterVersion source ever synced, and says why when it was refused', () => {
    expect(labelWith([])).toBe('Update state unknown: ClusterVersion not read yet');
    expect(labelWith([source('pending')])).toBe('Update state unknown: ClusterVersion not read yet');
    expect(labelWith([source('unreachable')])).toBe('Update state unknown: ClusterVersion not read yet (unreachable)');
  });

  it('is missing once the source was read, and in a must-gather', () => {
    expect(labelWith([source('synced', NOW)])).toBe('Update state unknown: no ClusterVersion on the cluster');
    expect(labelWith([source('stale', NOW)])).toBe('Update state unknown: no ClusterVersion on the cluster');
    expect(labelWith([], 'must-gather')).toBe('Update state unknown: ClusterVersion not in the must-gather');
  });

  it('is not read for a resource the cluster has no source for yet', () => {
    expect(unreadCause([source('synced', NOW)], 'clusterversions', 'ClusterVersion')).toBeUndefined();
    expect(unreadCause([], 'clusterversions', 'ClusterVersion')).toEqual({ kind: 'unread', what: 'ClusterVersion' });
  });
});
