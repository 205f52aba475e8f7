import { describe, expect, it } from 'vitest';
import { compareVersions } from './compare-versions';
import { toHistoryTimeline } from './to-history-timeline';

const entry = (version: string, startedTime: string | null, state = 'Completed') => ({
  version,
  state,
  startedTime,
  completionTime: null,
  image: `quay.io/openshift-release-dev/ocp-release@sha256:${version}`,
});

describe('compareVersions', () => {
  it.each([
    ['4.14.38', '4.14.39', -1],
    ['4.14.9', '4.14.10', -1],
    ['4.13.0', '4.14.0', -1],
    ['4.16.0-ec.2', '4.16.0', -1],
    ['4.16.0-ec.2', '4.16.0-ec.10', -1],
    ['4.16.0-rc.1', '4.16.0-ec.3', 1],
    ['4.15.3', '4.15.3', 0],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
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

  it('is empty for an empty history', () => {
    expect(toHistoryTimeline([])).toEqual([]);
  });
});
