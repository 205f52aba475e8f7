import { describe, expect, it } from 'vitest';
import { compareFindings, speaksForCluster, type OrderedFinding } from '@/lib/health/finding-order';

const f = (id: string, severity: OrderedFinding['severity'], extra: Partial<OrderedFinding> = {}): OrderedFinding => ({
  id,
  severity,
  ...extra,
});

describe('compareFindings', () => {
  it('orders by severity, then observed before predicted, then onset, then id', () => {
    const list = [
      f('z', 'info', { basis: 'predicted' }),
      f('b', 'critical', { since: '2026-01-01T10:00:00Z' }),
      f('a', 'critical', { basis: 'predicted' }),
      f('c', 'critical', { since: '2026-01-01T09:00:00Z' }),
      f('d', 'critical'),
      f('y', 'info'),
    ];
    expect([...list].sort(compareFindings).map((x) => x.id)).toStrictEqual(['c', 'b', 'd', 'a', 'y', 'z']);
  });

  it('does not reorder when a title or summary number changes (only stable fields count)', () => {
    const before = [
      f('x', 'warning', { since: '2026-01-01T09:00:00Z' }),
      f('w', 'warning', { since: '2026-01-01T09:05:00Z' }),
    ];
    const after = before.map((x) => ({ ...x, title: `${x.id} 97%` }));
    const ids = (list: OrderedFinding[]) => [...list].sort(compareFindings).map((x) => x.id);
    expect(ids(after)).toStrictEqual(ids(before));
  });
});

describe('speaksForCluster', () => {
  it('an info-level prediction or an ok check never speaks for the cluster; an imminent prediction does', () => {
    expect(speaksForCluster({ severity: 'info', basis: 'predicted' })).toBe(false);
    expect(speaksForCluster({ severity: 'ok' })).toBe(false);
    expect(speaksForCluster({ severity: 'info' })).toBe(true);
    expect(speaksForCluster({ severity: 'critical', basis: 'predicted' })).toBe(true);
  });
});
