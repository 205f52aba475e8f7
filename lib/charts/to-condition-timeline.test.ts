import { describe, expect, it } from 'vitest';
import type { TransitionDto } from '@/lib/api/dto';
import { busiestLanes, conditionTone, toConditionTimeline, type ConditionSegment } from './to-condition-timeline';

const NOW = Date.parse('2026-01-01T01:00:00Z');
const ref = { kind: 'ClusterExtension', name: 'argocd' };
const tr = (at: string, status: string, reason: string, message?: string, type = 'Installed'): TransitionDto => ({
  ref,
  type,
  status,
  reason,
  message,
  at,
});

describe('toConditionTimeline', () => {
  it('builds one lane per object and condition type with consecutive segments', () => {
    const lanes = toConditionTimeline(
      [
        tr('2026-01-01T00:50:00Z', 'False', 'Retrying', 'namespace "argocd" is being terminated'),
        tr('2026-01-01T00:40:00Z', 'False', 'Failed', 'unpack failed: image not found'),
        tr('2026-01-01T00:45:00Z', 'True', 'Progressing', undefined, 'Progressing'),
      ],
      { now: NOW, range: '1h' },
    );
    expect(lanes.map((l) => l.key)).toEqual([
      'ClusterExtension/argocd:Installed',
      'ClusterExtension/argocd:Progressing',
    ]);
    expect(lanes[0].segments).toEqual([
      {
        from: Date.parse('2026-01-01T00:40:00Z'),
        to: Date.parse('2026-01-01T00:50:00Z'),
        status: 'False',
        tone: 'bad',
        reason: 'Failed',
        message: 'unpack failed: image not found',
      },
      {
        from: Date.parse('2026-01-01T00:50:00Z'),
        to: null,
        status: 'False',
        tone: 'bad',
        reason: 'Retrying',
        message: 'namespace "argocd" is being terminated',
      },
    ]);
    expect(lanes[0].changes).toBe(2);
  });

  it('clips segments that started before the range', () => {
    const lanes = toConditionTimeline(
      [tr('2026-01-01T00:00:00Z', 'True', 'Succeeded'), tr('2026-01-01T00:58:00Z', 'False', 'Failed')],
      { now: NOW, range: '15m' },
    );
    expect(lanes[0].segments[0].from).toBe(NOW - 15 * 60_000);
    expect(lanes[0].changes).toBe(1);
  });

  it('caps segments per lane, keeping the newest', () => {
    const many = Array.from({ length: 50 }, (_, i) =>
      tr(new Date(NOW - (50 - i) * 1000).toISOString(), i % 2 ? 'True' : 'False', `R${i}`),
    );
    const [lane] = toConditionTimeline(many, { now: NOW, range: 'all', maxSegments: 10 });
    expect(lane.segments).toHaveLength(10);
    expect(lane.segments.at(-1)?.reason).toBe('R49');
  });
});

describe('busiestLanes', () => {
  it('keeps the lanes with most changes, busiest first, and returns the rest in the same order', () => {
    const lane = (label: string, changes: number, segments: ConditionSegment[] = []) => ({
      key: label,
      label,
      segments,
      changes,
    });
    const out = busiestLanes([lane('a', 1), lane('b', 5), lane('c', 3), lane('d', 0)], 2);
    expect(out.lanes.map((l) => l.key)).toEqual(['b', 'c']);
    expect(out.hidden).toBe(2);
    expect(out.rest.map((l) => l.key)).toEqual(['a', 'd']);
  });
  it('puts a lane that is bad now before healthy lanes that flapped through bad states', () => {
    const seg = (from: number, tone: ConditionSegment['tone'], to: number | null = null): ConditionSegment => ({
      from,
      to,
      status: tone === 'bad' ? 'True' : 'False',
      tone,
    });
    const lane = (label: string, segments: ConditionSegment[]) => ({
      key: label,
      label,
      segments,
      changes: segments.length,
    });
    const catalog = lane('ClusterCatalog a · Serving', [
      seg(0, 'bad', 1),
      seg(1, 'good', 2),
      seg(2, 'bad', 3),
      seg(3, 'good'),
    ]);
    const tuned = lane('ClusterOperator node-tuning · Degraded', [seg(0, 'good', 5), seg(5, 'bad')]);
    const calm = lane('ClusterOperator dns · Available', [seg(0, 'good')]);
    expect(busiestLanes([catalog, calm, tuned], 3).lanes.map((l) => l.key)).toEqual([tuned.key, catalog.key, calm.key]);
  });
  it('puts lanes that were in a bad state first', () => {
    const seg: ConditionSegment = { from: 0, to: null, status: 'False', tone: 'bad' };
    const lane = (label: string, changes: number, segments: ConditionSegment[] = []) => ({
      key: label,
      label,
      segments,
      changes,
    });
    expect(busiestLanes([lane('busy', 9), lane('failing', 1, [seg])], 1).lanes.map((l) => l.key)).toEqual(['failing']);
  });
});

describe('conditionTone', () => {
  it.each([
    ['Available', 'False', 'bad'],
    ['Available', 'True', 'good'],
    ['Installed', 'False', 'bad'],
    ['Degraded', 'True', 'bad'],
    ['Degraded', 'False', 'good'],
    ['Progressing', 'True', 'neutral'],
    ['Progressing', 'False', 'good'],
    ['Installed', 'Unknown', 'neutral'],
  ])('%s=%s is %s', (type, status, tone) => {
    expect(conditionTone(type, status)).toBe(tone);
  });
});
