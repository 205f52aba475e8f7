import { describe, expect, it } from 'vitest';
import type { ClusterSummaryDto, SourceStateDto } from '@/lib/api/dto';
import { applySummaryPatch, summaryPatch } from './summary-patch';
import { summaryPatcher } from './summary-stream';

const AT = '2026-11-25T09:00:00Z';
const source = (resource: string, over: Partial<SourceStateDto> = {}): SourceStateDto => ({
  resource,
  status: 'synced',
  since: AT,
  lastSyncAt: AT,
  lastEventAt: AT,
  ...over,
});
const RESOURCES = [
  'clusterversions',
  'clusteroperators',
  'nodes',
  'pods',
  'deployments',
  'clusterextensions',
  'featuregates',
];
const row = (over: Partial<ClusterSummaryDto> = {}): ClusterSummaryDto => ({
  id: 'a',
  name: 'a',
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity: 'warning',
  worstFinding: { id: 'f1', detector: 'catalog-replicas', severity: 'warning', title: 'catalogd has 0 of 1 ready' },
  findingCounts: { critical: 0, warning: 1, info: 0 },
  sources: RESOURCES.map((r) => source(r)),
  role: 'standalone',
  channel: 'stable-4.16',
  ...over,
});
const withSource = (base: ClusterSummaryDto, i: number, over: Partial<SourceStateDto>): ClusterSummaryDto => ({
  ...base,
  sources: base.sources.map((s, j) => (j === i ? { ...s, ...over } : s)),
});

describe('summaryPatch', () => {
  it('is undefined when nothing changed, even for equal copies', () => {
    expect(summaryPatch(row(), row())).toBeUndefined();
  });

  it('carries only the source that changed, not the unchanged ones', () => {
    const prev = row();
    const next = withSource(prev, 3, { lastEventAt: '2026-11-25T09:00:05Z' });
    const patch = summaryPatch(prev, next)!;
    expect(patch).toEqual({ type: 'summary-patch', clusterId: 'a', sources: [next.sources[3]] });
    const whole = JSON.stringify({ type: 'summary', clusterId: 'a', summary: next });
    expect(JSON.stringify(patch).length * 4).toBeLessThan(whole.length);
    expect(applySummaryPatch(prev, patch)).toEqual(next);
  });

  it('sets changed fields and unsets optional fields that are gone', () => {
    const prev = row();
    const next = row({ worstSeverity: 'ok', findingCounts: { critical: 0, warning: 0, info: 0 } });
    delete next.worstFinding;
    delete next.channel;
    const patch = summaryPatch(prev, next)!;
    expect(patch.set).toEqual({ worstSeverity: 'ok', findingCounts: { critical: 0, warning: 0, info: 0 } });
    expect(patch.unset?.sort()).toEqual(['channel', 'worstFinding']);
    expect(patch.sources).toBeUndefined();
    const applied = applySummaryPatch(prev, patch);
    expect(applied).toEqual(next);
    expect('worstFinding' in applied).toBe(false);
  });

  it('sends the whole source list when sources were added, removed or reordered', () => {
    const prev = row();
    const renamespaced = source('pods', { namespace: 'openshift-ovn-kubernetes' });
    const lists = [
      [...prev.sources, source('hostedclusters')],
      prev.sources.slice(1),
      [...prev.sources].reverse(),
      [...prev.sources.slice(0, 2), renamespaced, ...prev.sources.slice(3)],
    ];
    for (const sources of lists) {
      const next = row({ sources });
      const patch = summaryPatch(prev, next)!;
      expect(patch.sourceList).toBe(sources);
      expect(patch.sources).toBeUndefined();
      expect(applySummaryPatch(prev, patch)).toEqual(next);
    }
  });

  it('round-trips a sequence of rows: applying each patch to the previous row gives the next', () => {
    const rows = [
      row(),
      withSource(row(), 0, { status: 'stale', error: { message: 'watch timed out' } }),
      row({ updating: true, desiredVersion: '4.17.1', worstSeverity: 'critical', managedBy: 'mgmt' }),
      row({ sources: [] }),
      row({ name: 'renamed', role: 'hosted', channel: null }),
    ];
    let client = rows[0];
    for (let i = 1; i < rows.length; i += 1) {
      const patch = summaryPatch(rows[i - 1], rows[i]);
      client = patch ? applySummaryPatch(client, patch) : client;
      expect(client).toEqual(rows[i]);
    }
  });
});

describe('summaryPatcher (one per stream)', () => {
  const summary = (r: ClusterSummaryDto) => ({ type: 'summary' as const, clusterId: r.id, summary: r });

  it("sends a cluster's first row whole, then only what changed, and nothing for an unchanged row", () => {
    const patcher = summaryPatcher();
    const first = summary(row());
    expect(patcher(first)).toBe(first);
    expect(patcher(summary(row()))).toBeUndefined();
    const next = withSource(row(), 1, { status: 'unreachable' });
    expect(patcher(summary(next))).toEqual({ type: 'summary-patch', clusterId: 'a', sources: [next.sources[1]] });
    const other = summary(row({ id: 'b', name: 'b' }));
    expect(patcher(other)).toBe(other);
  });

  it('passes other messages unchanged, and a new stream (a resume) starts again from whole rows', () => {
    const patcher = summaryPatcher();
    patcher(summary(row()));
    const samples = { type: 'samples' as const, clusterId: 'a', detector: 'catalog-replicas', points: [] };
    expect(patcher(samples)).toBe(samples);
    const again = summary(row());
    expect(summaryPatcher()(again)).toBe(again);
  });
});
