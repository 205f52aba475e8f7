import { describe, expect, it } from 'vitest';
import { clusterSummarySchema, optionalSummaryFieldSchema } from '@/lib/api/dto';
import type { ClusterSummaryDto, SourceStateDto } from '@/lib/api/dto';
import { rowSourcesOf } from '@/lib/cluster/row-sources';
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
const SOURCES = RESOURCES.map((r) => source(r));
const row = (over: Partial<ClusterSummaryDto> = {}): ClusterSummaryDto => ({
  id: 'a',
  name: 'a',
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  updatePhase: 'idle',
  updateLabel: 'Up to date',
  worstSeverity: 'warning',
  worstFinding: { id: 'f1', detector: 'catalog-replicas', severity: 'warning', title: 'catalogd has 0 of 1 ready' },
  findingCounts: { critical: 0, warning: 1, info: 0 },
  sources: rowSourcesOf(SOURCES),
  role: 'standalone',
  channel: 'stable-4.16',
  ...over,
});
/** The row after source `i` of {@link SOURCES} changed. */
const withSource = (base: ClusterSummaryDto, i: number, over: Partial<SourceStateDto>): ClusterSummaryDto => ({
  ...base,
  sources: rowSourcesOf(SOURCES.map((s, j) => (j === i ? { ...s, ...over } : s))),
});

describe('summaryPatch', () => {
  it('is undefined when nothing changed, even for equal copies', () => {
    expect(summaryPatch(row(), row())).toBeUndefined();
  });

  it('sends nothing when only what a row does not carry changed (a synced source saw an event)', () => {
    expect(summaryPatch(row(), withSource(row(), 3, { lastEventAt: '2026-11-25T09:00:05Z' }))).toBeUndefined();
  });

  it('sets the compact sources whole when a source falls behind or syncs: counts and behind change', () => {
    const synced = row();
    const stale = withSource(synced, 3, { status: 'stale', since: '2026-11-25T09:01:00Z', error: { message: 'EOF' } });
    const behind = summaryPatch(synced, stale)!;
    expect(behind).toEqual({ type: 'summary-patch', clusterId: 'a', set: { sources: stale.sources } });
    expect(behind.set?.sources).toMatchObject({ total: 7, synced: 6, behind: [{ resource: 'pods', status: 'stale' }] });
    expect(applySummaryPatch(synced, behind)).toEqual(stale);
    const again = summaryPatch(stale, synced)!;
    expect(again.set?.sources).toEqual({ total: 7, synced: 7, behind: [], since: AT });
    expect(applySummaryPatch(stale, again)).toEqual(synced);
    const whole = JSON.stringify({ type: 'summary', clusterId: 'a', summary: stale });
    expect(JSON.stringify(behind).length * 2).toBeLessThan(whole.length);
  });

  it('sets changed fields and unsets optional fields that are gone', () => {
    const prev = row();
    const next = row({ worstSeverity: 'ok', findingCounts: { critical: 0, warning: 0, info: 0 } });
    delete next.worstFinding;
    delete next.channel;
    const patch = summaryPatch(prev, next)!;
    expect(patch.set).toEqual({ worstSeverity: 'ok', findingCounts: { critical: 0, warning: 0, info: 0 } });
    expect(patch.unset?.sort()).toEqual(['channel', 'worstFinding']);
    const applied = applySummaryPatch(prev, patch);
    expect(applied).toEqual(next);
    expect('worstFinding' in applied).toBe(false);
  });

  it("carries the update's phase and label and the cluster's tier when they change", () => {
    const idle = row({
      activity: { tier: 'always', since: AT, reasons: [], waiting: ['cluster-wide pods'] },
    });
    const updating = row({
      updating: true,
      updatePhase: 'updating-control-plane',
      updateLabel: 'Updating to 4.17.1',
      desiredVersion: '4.17.1',
      activity: { tier: 'active', since: '2026-11-25T09:02:00Z', reasons: ['updating'], waiting: [] },
    });
    const patch = summaryPatch(idle, updating)!;
    expect(Object.keys(patch.set ?? {}).sort()).toEqual([
      'activity',
      'desiredVersion',
      'updateLabel',
      'updatePhase',
      'updating',
    ]);
    expect(applySummaryPatch(idle, patch)).toEqual(updating);
    const unread = { ...updating };
    delete unread.updatePhase;
    delete unread.updateLabel;
    delete unread.activity;
    expect(summaryPatch(updating, unread)?.unset?.sort()).toEqual(['activity', 'updateLabel', 'updatePhase']);
  });

  it('can unset every optional field of the row, and only those', () => {
    const optional = Object.entries(clusterSummarySchema.shape)
      .filter(([, schema]) => schema.safeParse(undefined).success)
      .map(([field]) => field)
      .sort();
    expect([...optionalSummaryFieldSchema.options].sort()).toEqual(optional);
  });

  it('round-trips a sequence of rows: applying each patch to the previous row gives the next', () => {
    const rows = [
      row(),
      withSource(row(), 0, { status: 'stale', error: { message: 'watch timed out' } }),
      row({ updating: true, desiredVersion: '4.17.1', worstSeverity: 'critical', managedBy: 'mgmt' }),
      row({ sources: rowSourcesOf([]) }),
      row({ name: 'renamed', role: 'hosted', channel: null }),
      row({ reachability: { status: 'hub-unavailable', since: AT, message: 'lease expired' } }),
      row(),
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
    expect(patcher(summary(next))).toEqual({ type: 'summary-patch', clusterId: 'a', set: { sources: next.sources } });
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
