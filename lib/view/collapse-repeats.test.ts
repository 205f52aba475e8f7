import { describe, expect, it } from 'vitest';
import { collapseRepeats } from './collapse-repeats';

describe('collapseRepeats', () => {
  it('folds consecutive repeats that differ only in their RFC 3339 timestamp, with count and first/last time', () => {
    const out = collapseRepeats([
      '2026-01-01T00:00:01Z status write rejected: 422',
      '2026-01-01T00:00:31Z status write rejected: 422',
      '2026-01-01T00:01:01Z status write rejected: 422',
      '2026-01-01T00:01:02Z sync done',
    ]);
    expect(out).toEqual([
      {
        line: '2026-01-01T00:00:01Z status write rejected: 422',
        text: 'status write rejected: 422',
        count: 3,
        first: '2026-01-01T00:00:01Z',
        last: '2026-01-01T00:01:01Z',
      },
      {
        line: '2026-01-01T00:01:02Z sync done',
        text: 'sync done',
        count: 1,
        first: '2026-01-01T00:01:02Z',
        last: '2026-01-01T00:01:02Z',
      },
    ]);
  });

  it('folds klog lines as the CVO writes them (thread id and source after the time)', () => {
    const line = (s: number) => `I1122 09:12:0${s}.123456       1 cvo.go:668] Error handling version: is invalid`;
    const [run] = collapseRepeats([line(1), line(2), line(3)]);
    expect(run).toMatchObject({ line: line(1), count: 3, first: '1122 09:12:01.123456', last: '1122 09:12:03.123456' });
  });

  it('handles klog prefixes and keeps the severity letter apart', () => {
    const out = collapseRepeats([
      'E0101 00:00:01.000001 x failed',
      'E0101 00:00:02.000001 x failed',
      'I0101 00:00:03.1 x failed',
    ]);
    expect(out.map((l) => [l.text, l.count, l.first, l.last])).toEqual([
      ['E x failed', 2, '0101 00:00:01.000001', '0101 00:00:02.000001'],
      ['I x failed', 1, '0101 00:00:03.1', '0101 00:00:03.1'],
    ]);
  });

  it('keeps non-adjacent repeats and untimed lines as they are', () => {
    expect(collapseRepeats(['a', 'a', 'b', 'a'])).toEqual([
      { line: 'a', text: 'a', count: 2 },
      { line: 'b', text: 'b', count: 1 },
      { line: 'a', text: 'a', count: 1 },
    ]);
    expect(collapseRepeats([])).toEqual([]);
  });
});
