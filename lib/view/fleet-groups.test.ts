import { describe, expect, it } from 'vitest';
import type { ClusterSummaryDto } from '@/lib/api/dto';
import { groupFleetRows } from './fleet-groups';

const row = (id: string, over: Partial<ClusterSummaryDto> = {}): ClusterSummaryDto => ({
  id,
  name: id,
  version: '4.16.8',
  desiredVersion: '4.16.8',
  updating: false,
  worstSeverity: 'ok',
  findingCounts: { critical: 0, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone',
  ...over,
});
const hosted = (id: string, managedBy: string, worstSeverity: ClusterSummaryDto['worstSeverity']) =>
  row(`${managedBy}.clusters.${id}`, { name: id, role: 'hosted', managedBy, worstSeverity });

describe('groupFleetRows', () => {
  const rows = [
    hosted('b', 'mgmt', 'critical'),
    row('a'),
    row('mgmt', { role: 'management' }),
    hosted('c', 'mgmt', 'ok'),
    hosted('d', 'gone', 'warning'),
  ];

  it('puts hosted rows under their management row, keeping the given order, with counts by severity', () => {
    const entries = groupFleetRows(rows);
    expect(entries.map((e) => [e.row.id, e.depth])).toEqual([
      ['a', 0],
      ['mgmt', 0],
      ['mgmt.clusters.b', 1],
      ['mgmt.clusters.c', 1],
      ['gone.clusters.d', 0],
    ]);
    expect(entries[1].hosted).toEqual({ total: 2, bySeverity: { critical: 1, warning: 0, info: 0, ok: 1 } });
  });

  it('hides the hosted rows of a collapsed management row but keeps its counts', () => {
    const entries = groupFleetRows(rows, new Set(['mgmt']));
    expect(entries.map((e) => e.row.id)).toEqual(['a', 'mgmt', 'gone.clusters.d']);
    expect(entries[1].hosted?.total).toBe(2);
  });
});
