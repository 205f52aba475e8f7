import { describe, expect, it } from 'vitest';
import type { FindingEvent, FindingEventKind } from './finding-lifecycle';
import { buildTimeline, openAt } from './timeline';

const base = Date.parse('2026-11-25T10:00:00.000Z');
const min = (m: number) => base + m * 60_000;

function event(
  findingId: string,
  openedAt: number,
  kind: FindingEventKind,
  at: number,
  severity = 'warning',
): FindingEvent {
  return {
    clusterId: 'c1',
    findingId,
    openedAt,
    kind,
    at,
    detector: 'node-drain',
    subject: { kind: 'Node', name: findingId },
    title: `title ${findingId}`,
    severity: severity as FindingEvent['severity'],
    digest: 'd',
    refs: [{ kind: 'Node', name: findingId }],
  };
}

const events = [
  event('a', min(0), 'opened', min(0)),
  event('a', min(0), 'severity', min(10), 'critical'),
  event('a', min(0), 'resolved', min(20), 'critical'),
  event('b', min(15), 'opened', min(15)),
  event('a', min(30), 'opened', min(30)),
];

describe('the timeline built from lifecycle events', () => {
  it('lists each episode overlapping the window with its changes up to the window end', () => {
    const whole = buildTimeline(events, min(0), min(40));
    expect(whole.map((e) => [e.findingId, e.openedAt, e.resolvedAt, e.severity])).toEqual([
      ['a', new Date(min(0)).toISOString(), new Date(min(20)).toISOString(), 'critical'],
      ['b', new Date(min(15)).toISOString(), null, 'warning'],
      ['a', new Date(min(30)).toISOString(), null, 'warning'],
    ]);
    expect(whole[0].changes).toEqual([
      { kind: 'severity', at: new Date(min(10)).toISOString(), severity: 'critical', digest: 'd' },
    ]);
  });

  it('leaves out what opened after the window and what resolved before it; a later resolution reads as open', () => {
    const early = buildTimeline(events, min(5), min(5));
    expect(early.map((e) => [e.findingId, e.resolvedAt, e.severity, e.changes.length])).toEqual([
      ['a', null, 'warning', 0],
    ]);
    const late = buildTimeline(events, min(25), min(40));
    expect(late.map((e) => e.findingId)).toEqual(['b', 'a']);
  });

  it('answers what was open at a moment, with the severity then', () => {
    const entries = buildTimeline(events, min(0), min(40));
    expect(openAt(entries, min(12)).map((e) => [e.findingId, e.severity])).toEqual([['a', 'critical']]);
    expect(openAt(entries, min(17)).map((e) => e.findingId)).toEqual(['a', 'b']);
    expect(openAt(entries, min(20)).map((e) => e.findingId)).toEqual(['b']);
  });
});
