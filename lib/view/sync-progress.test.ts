import { describe, expect, it } from 'vitest';
import type { SourceStateDto } from '@/lib/api/dto';
import { rowSourcesOf } from '@/lib/cluster/row-sources';
import { syncProgress } from './sync-progress';

const row = (...statuses: SourceStateDto['status'][]) => ({
  sources: rowSourcesOf(statuses.map((status, i) => ({ resource: `r${i}`, status, since: '2026-01-01T00:00:00Z' }))),
});

describe('syncProgress', () => {
  it('counts rows with every source up to date (synced, or idle on purpose) out of the clusters found', () => {
    const rows = [row('synced', 'idle'), row('synced', 'pending'), row(), row('synced')];
    expect(syncProgress(rows, { discovered: 6 })).toEqual({ synced: 2, total: 6, done: false });
  });

  it('counts rows the stream added since the last list fetch', () => {
    expect(syncProgress([row('synced'), row('synced'), row('synced')], { discovered: 2 })).toEqual({
      synced: 3,
      total: 3,
      done: true,
    });
  });
});
