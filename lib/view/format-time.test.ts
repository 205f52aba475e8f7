import { describe, expect, it } from 'vitest';
import { formatClock, formatDateTime, formatDuration, formatNumber, formatSince, formatUntil } from './format-time';

describe('time formatting', () => {
  it.each([
    [5, '5s'],
    [125, '2m'],
    [3600, '1h'],
    [3 * 3600 + 300, '3h 5m'],
    [2 * 86400 + 4 * 3600, '2d 4h'],
  ])('%ss → %s', (s, out) => {
    expect(formatDuration(s)).toBe(out);
  });
  it('formats relative, clock and absolute times in UTC', () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    expect(formatSince('2026-01-01T00:07:00Z', now)).toBe('3m ago');
    expect(formatSince('nonsense', now)).toBe('nonsense');
    expect(formatSince(undefined, now)).toBe('unknown');
    expect(formatClock(now)).toBe('00:10:00');
    expect(formatDateTime('2026-01-01T00:07:00Z')).toBe('2026-01-01 00:07:00 UTC');
    expect(formatDateTime(null)).toBe('—');
  });
});

describe('formatNumber', () => {
  it.each([
    [3, '3'],
    [0.4567, '0.46'],
    [12.345, '12.3'],
    [null, '—'],
    [Number.NaN, '—'],
  ])('%s → %s', (v, out) => {
    expect(formatNumber(v)).toBe(out);
  });
});

describe('formatUntil', () => {
  const now = Date.parse('2026-11-24T10:00:00Z');
  it('counts down to a future instant and says now once it has passed', () => {
    expect(formatUntil('2026-11-24T10:00:12Z', now)).toBe('in 12s');
    expect(formatUntil('2026-11-24T10:03:00Z', now)).toBe('in 3m');
    expect(formatUntil('2026-11-24T09:59:00Z', now)).toBe('now');
    expect(formatUntil('not a time', now)).toBe('not a time');
  });
});
