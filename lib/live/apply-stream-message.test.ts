import { describe, expect, it } from 'vitest';
import type {
  ClusterHealthDto,
  ClusterListDto,
  ClusterSeriesDto,
  ClusterSummaryDto,
  StreamMessage,
  TransitionDto,
} from '@/lib/api/dto';
import { applyStreamMessage, type LiveCacheSlice } from './apply-stream-message';
import { forView } from './summary-stream';

const summary = (id: string, worstSeverity: ClusterSummaryDto['worstSeverity'] = 'ok'): ClusterSummaryDto => ({
  id,
  name: id,
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity,
  findingCounts: { critical: 0, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone',
});
const health = (id: string, title = 'x'): ClusterHealthDto => ({
  cluster: { id, name: id, version: '4.16.3', desiredVersion: '4.16.3', channel: 'stable-4.16', history: [] },
  findings: [
    {
      id: `f-${title}`,
      detector: 'catalog-replicas',
      severity: 'warning',
      subject: { kind: 'Deployment', name: 'd' },
      title,
      summary: '',
      evidence: [],
      remediation: [],
    },
  ],
  updateProgress: null,
  updateRecommendations: null,
  sources: [],
});
const list: ClusterListDto = { clusters: [summary('a'), summary('b')] };
const series = (points = 3): ClusterSeriesDto => ({
  clusterId: 'a',
  now: points * 1000,
  samples: {
    'catalog-replicas': Array.from({ length: points }, (_, i) => ({ t: (i + 1) * 1000, values: { ready: i } })),
  },
  transitions: [],
});
const slice = (over: Partial<LiveCacheSlice> = {}): LiveCacheSlice => ({
  list,
  health: health('a'),
  series: series(),
  ...over,
});
const tr = (at: string, reason: string): TransitionDto => ({
  ref: { kind: 'ClusterExtension', name: 'e' },
  type: 'Installed',
  status: 'False',
  reason,
  at,
});

describe('applyStreamMessage: health', () => {
  it('replaces the health and that row of the list, keeping the other rows and the series', () => {
    const before = slice();
    const msg: StreamMessage = {
      type: 'health',
      clusterId: 'a',
      health: health('a', 'new'),
      summary: summary('a', 'critical'),
    };
    const after = applyStreamMessage(before, msg);
    expect(after.health).toBe(msg.health);
    expect(after.list?.clusters.map((c) => c.worstSeverity)).toEqual(['critical', 'ok']);
    expect(after.list?.clusters[1]).toBe(before.list?.clusters[1]);
    expect(after.series).toBe(before.series);
    expect(before.list?.clusters[0].worstSeverity).toBe('ok');
  });

  it('appends a row for a new cluster and leaves an uncached list uncached', () => {
    const msg: StreamMessage = { type: 'health', clusterId: 'c', health: health('c'), summary: summary('c') };
    expect(applyStreamMessage(slice(), msg).list?.clusters.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(applyStreamMessage(slice({ list: undefined }), msg).list).toBeUndefined();
  });
});

describe("applyStreamMessage: summary (the fleet page's stream)", () => {
  it('replaces only the row, keeping health and series by identity', () => {
    const before = slice();
    const after = applyStreamMessage(before, { type: 'summary', clusterId: 'b', summary: summary('b', 'warning') });
    expect(after.list?.clusters.map((c) => c.worstSeverity)).toEqual(['ok', 'warning']);
    expect(after.health).toBe(before.health);
    expect(after.series).toBe(before.series);
  });
});

describe("applyStreamMessage: summary-patch (the fleet page's deltas)", () => {
  it('changes only the fields it names (the compact sources whole), keeping other rows, health and series', () => {
    const since = '2026-11-25T09:00:00Z';
    const row = { ...summary('a'), sources: { total: 2, synced: 2, behind: [], since } };
    const before = slice({ list: { clusters: [row, summary('b')] } });
    const pods = { resource: 'pods', status: 'stale' as const, since: '2026-11-25T09:01:00Z' };
    const after = applyStreamMessage(before, {
      type: 'summary-patch',
      clusterId: 'a',
      set: { worstSeverity: 'critical', sources: { total: 2, synced: 1, behind: [pods], since } },
    });
    expect(after.list?.clusters[0]).toMatchObject({ id: 'a', worstSeverity: 'critical', version: '4.16.3' });
    expect(after.list?.clusters[0].sources).toEqual({ total: 2, synced: 1, behind: [pods], since });
    expect(before.list?.clusters[0].sources).toEqual({ total: 2, synced: 2, behind: [], since });
    expect(after.list?.clusters[1]).toBe(before.list?.clusters[1]);
    expect(after.health).toBe(before.health);
    expect(after.series).toBe(before.series);
  });

  it('drops a patch for a row the cached list does not have, and leaves an uncached list uncached', () => {
    const before = slice();
    const patch: StreamMessage = { type: 'summary-patch', clusterId: 'c', set: { worstSeverity: 'critical' } };
    expect(applyStreamMessage(before, patch).list).toBe(before.list);
    expect(applyStreamMessage(slice({ list: undefined }), patch).list).toBeUndefined();
  });
});

describe('forView', () => {
  it('turns health into its row for the summary view and drops chart messages; the detail view passes everything', () => {
    const msg: StreamMessage = { type: 'health', clusterId: 'a', health: health('a'), summary: summary('a') };
    const samples: StreamMessage = { type: 'samples', clusterId: 'a', detector: 'catalog-replicas', points: [] };
    expect(forView(msg, 'summary')).toEqual({ type: 'summary', clusterId: 'a', summary: msg.summary });
    expect(forView(msg, 'summary')).toBe(forView(msg, 'summary'));
    expect(JSON.stringify(forView(msg, 'summary')).length).toBeLessThan(JSON.stringify(msg).length);
    expect(forView(samples, 'summary')).toBeUndefined();
    expect(forView(msg, 'detail')).toBe(msg);
    expect(forView(samples, 'detail')).toBe(samples);
  });
});

describe('applyStreamMessage: samples', () => {
  it('appends newer points to the detector series and advances now', () => {
    const msg: StreamMessage = {
      type: 'samples',
      clusterId: 'a',
      detector: 'catalog-replicas',
      points: [{ t: 4000, values: { ready: 9 } }],
    };
    const after = applyStreamMessage(slice(), msg);
    expect(after.series?.samples['catalog-replicas'].map((p) => p.t)).toEqual([1000, 2000, 3000, 4000]);
    expect(after.series?.now).toBe(4000);
  });

  it('takes now from the first point of a series that had none: a now fetched before the clock was heard is a guess', () => {
    const guessed: ClusterSeriesDto = { ...series(0), now: 9_000_000, samples: {} };
    const after = applyStreamMessage(slice({ series: guessed }), {
      type: 'samples',
      clusterId: 'a',
      detector: 'catalog-replicas',
      points: [{ t: 5_000, values: { ready: 1 } }],
    });
    expect(after.series?.now).toBe(5_000);
    expect(after.series?.samples['catalog-replicas']).toEqual([{ t: 5_000, values: { ready: 1 } }]);
  });

  it('starts a series for a detector that had none', () => {
    const msg: StreamMessage = {
      type: 'samples',
      clusterId: 'a',
      detector: 'pod-setup-latency',
      points: [{ t: 5000, values: { p99: 3.2 } }],
    };
    expect(applyStreamMessage(slice(), msg).series?.samples['pod-setup-latency']).toEqual([
      { t: 5000, values: { p99: 3.2 } },
    ]);
  });

  it('ignores points a resumed stream repeats, keeping identity when nothing is new', () => {
    const before = slice();
    const msg: StreamMessage = {
      type: 'samples',
      clusterId: 'a',
      detector: 'catalog-replicas',
      points: [
        { t: 2000, values: { ready: 1 } },
        { t: 3000, values: { ready: 2 } },
      ],
    };
    expect(applyStreamMessage(before, msg).series).toBe(before.series);
  });

  it('bounds the series at the point limit, keeping first and last', () => {
    const before = slice({ series: series(1000) });
    const points = Array.from({ length: 50 }, (_, i) => ({
      t: 1_001_000 + i * 1000,
      values: { ready: i === 10 ? 99 : 1 },
    }));
    const after = applyStreamMessage(before, { type: 'samples', clusterId: 'a', detector: 'catalog-replicas', points });
    const out = after.series!.samples['catalog-replicas'];
    expect(out.length).toBeLessThanOrEqual(1000);
    expect(out[0].t).toBe(1000);
    expect(out.at(-1)?.t).toBe(1_050_000);
    expect(out.some((p) => p.values.ready === 99)).toBe(true);
  });

  it('drops samples when the series is not cached yet', () => {
    const before = slice({ series: undefined });
    const after = applyStreamMessage(before, {
      type: 'samples',
      clusterId: 'a',
      detector: 'x',
      points: [{ t: 1, values: {} }],
    });
    expect(after).toBe(before);
  });
});

describe('applyStreamMessage: transitions', () => {
  it('appends new transitions, skips repeats, and keeps the newest within the bound', () => {
    let s = slice();
    s = applyStreamMessage(s, {
      type: 'transitions',
      clusterId: 'a',
      transitions: [tr('2026-01-01T00:00:00Z', 'Failed')],
    });
    s = applyStreamMessage(s, {
      type: 'transitions',
      clusterId: 'a',
      transitions: [tr('2026-01-01T00:00:00Z', 'Failed'), tr('2026-01-01T00:00:05Z', 'Retrying')],
    });
    expect(s.series?.transitions.map((t) => t.reason)).toEqual(['Failed', 'Retrying']);
    const many = Array.from({ length: 30 }, (_, i) =>
      tr(new Date(Date.UTC(2026, 0, 2, 0, 0, i)).toISOString(), `R${i}`),
    );
    const bounded = applyStreamMessage(
      s,
      { type: 'transitions', clusterId: 'a', transitions: many },
      { maxPoints: 1000, maxTransitions: 10 },
    );
    expect(bounded.series?.transitions).toHaveLength(10);
    expect(bounded.series?.transitions.at(-1)?.reason).toBe('R29');
  });
});
