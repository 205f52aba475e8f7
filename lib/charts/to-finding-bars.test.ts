import { describe, expect, it } from 'vitest';
import type { TimelineEntryDto } from '@/lib/api/history-dto';
import { MAX_BAR_POINTS, toFindingBars } from './to-finding-bars';

const base = Date.parse('2026-11-25T10:00:00.000Z');
const m = (minutes: number) => base + minutes * 60_000;
const iso = (minutes: number) => new Date(m(minutes)).toISOString();

function entry(
  id: string,
  opened: number,
  resolved: number | null,
  changes: [number, string][] = [],
): TimelineEntryDto {
  return {
    findingId: id,
    detector: 'node-drain',
    subject: { kind: 'Node', name: id },
    title: `title ${id}`,
    severity: 'warning',
    openedSeverity: 'warning',
    openedAt: iso(opened),
    resolvedAt: resolved === null ? null : iso(resolved),
    changes: changes.map(([at, severity]) => ({
      kind: 'severity' as const,
      at: iso(at),
      severity: severity as TimelineEntryDto['severity'],
      digest: 'd',
    })),
  };
}

const history = [
  { version: '4.16.9', state: 'Partial', startedTime: iso(20), completionTime: null, image: 'x' },
  { version: '4.15.30', state: 'Completed', startedTime: iso(-600), completionTime: iso(-500), image: 'y' },
];

describe('the finding timeline chart', () => {
  it('draws each episode as a bar split at severity changes, clipped to the window, over the update windows', () => {
    const chart = toFindingBars(
      [entry('a', -30, 10, [[5, 'critical']]), entry('b', 15, null), entry('a', 40, null)],
      history,
      { from: m(0), to: m(60) },
    );
    expect(chart.lanes.map((lane) => lane.findingId)).toEqual(['a', 'b']);
    expect(chart.bars.map((bar) => [bar.findingId, bar.lane, bar.start, bar.end, bar.open])).toEqual([
      ['a', 0, m(0), m(10), false],
      ['b', 1, m(15), m(60), true],
      ['a', 0, m(40), m(60), true],
    ]);
    expect(chart.bars[0].segments).toEqual([
      { start: m(0), end: m(5), severity: 'warning' },
      { start: m(5), end: m(10), severity: 'critical' },
    ]);
    // The 4.15 update ended before the window; the 4.16 one runs on to its end.
    expect(chart.versions).toEqual([{ version: '4.16.9', state: 'Partial', start: m(20), end: m(60), ongoing: true }]);
  });

  it('keeps at most 1,000 points, leaving out the oldest episodes and counting them', () => {
    const many = Array.from({ length: 800 }, (_, i) => entry(`f${i}`, i, i + 1));
    const chart = toFindingBars(many, [], { from: m(0), to: m(1_000) }, 5_000);
    expect(chart.points).toBeLessThanOrEqual(MAX_BAR_POINTS);
    expect(chart.bars).toHaveLength(500);
    expect(chart.omitted).toBe(300);
    expect(chart.bars[0].findingId).toBe('f300');
  });
});
