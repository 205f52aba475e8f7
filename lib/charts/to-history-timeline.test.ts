import { describe, expect, it } from 'vitest';
import { toHistoryTimeline } from './to-history-timeline';

const entry = (version: string, startedTime: string | null, state = 'Completed') => ({
  version,
  state,
  startedTime,
  completionTime: null,
  image: `quay.io/openshift-release-dev/ocp-release@sha256:${version}`,
});

describe('toHistoryTimeline', () => {
  it('orders oldest first and marks a cross-minor rollback', () => {
    // ClusterVersion serves history newest first.
    const out = toHistoryTimeline([
      entry('4.13.20', '2026-01-03T00:00:00Z', 'Partial'),
      entry('4.14.10', '2026-01-02T00:00:00Z'),
      entry('4.13.20', '2026-01-01T00:00:00Z'),
    ]);
    expect(out.map((e) => [e.version, e.rollback, e.crossMinor, e.current])).toEqual([
      ['4.13.20', false, false, false],
      ['4.14.10', false, false, false],
      ['4.13.20', true, true, true],
    ]);
  });

  it('marks a same-minor rollback without crossMinor', () => {
    const out = toHistoryTimeline([entry('4.14.38', '2026-01-02T00:00:00Z'), entry('4.14.39', '2026-01-01T00:00:00Z')]);
    expect(out[1]).toMatchObject({ version: '4.14.38', rollback: true, crossMinor: false });
  });

  it('falls back to served order when start times are missing', () => {
    const out = toHistoryTimeline([entry('4.16.2', null, 'Partial'), entry('4.15.9', null)]);
    expect(out.map((e) => e.version)).toEqual(['4.15.9', '4.16.2']);
    expect(out.some((e) => e.rollback)).toBe(false);
  });

  it('calls no step a rollback when either version is unknown (an image without a version)', () => {
    const out = toHistoryTimeline([
      entry('4.14.2', '2026-01-03T00:00:00Z'),
      entry('', '2026-01-02T00:00:00Z', 'Partial'),
      entry('4.14.1', '2026-01-01T00:00:00Z'),
    ]);
    expect(out.map((e) => [e.version, e.rollback])).toEqual([
      ['4.14.1', false],
      ['', false],
      ['4.14.2', false],
    ]);
  });

  it('is empty for an empty history', () => {
    expect(toHistoryTimeline([])).toEqual([]);
  });
});
