import { describe, expect, it } from 'vitest';
import type { FindingDto } from '@/lib/api/dto';
import { compareFindings, sortFindings, speaksForCluster, type OrderedFinding } from '@/lib/health/finding-order';

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

describe('sortFindings', () => {
  const f = (id: string, severity: FindingDto['severity'], detector = 'catalog-replicas', title = id): FindingDto => ({
    id,
    detector,
    severity,
    subject: { kind: 'Deployment', name: 'x' },
    title,
    summary: '',
    evidence: [],
    remediation: [],
  });
  it('sorts findings worst first, stably', () => {
    expect(
      sortFindings([
        f('a', 'info'),
        f('b', 'critical'),
        f('c', 'warning'),
        f('d', 'critical', 'featuregate-coverage'),
      ]).map((x) => x.id),
    ).toEqual(['b', 'd', 'c', 'a']);
  });
  it('keeps the order when only titles change, and puts predictions after observed findings', () => {
    const list = [
      f('a', 'warning', 'x', 'p99 0.9 s'),
      f('b', 'warning', 'x', 'p99 0.6 s'),
      { ...f('c', 'warning'), basis: 'predicted' as const },
    ];
    const renamed = list.map((x) => ({ ...x, title: `${x.title} (97%)` })).reverse();
    expect(sortFindings(list).map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(sortFindings(renamed).map((x) => x.id)).toEqual(['a', 'b', 'c']);
  });
});
