import { describe, expect, it } from 'vitest';
import { timeAxisLabel } from './time-axis';

describe('timeAxisLabel', () => {
  it('names the zone and the date once, then only the clock of the end on the same day', () => {
    expect(timeAxisLabel(Date.parse('2026-11-25T09:13:05Z'), Date.parse('2026-11-25T09:28:05Z'))).toBe(
      'Time (UTC): 2026-11-25 09:13:05 – 09:28:05',
    );
  });
  it('gives both dates when the span crosses midnight UTC', () => {
    expect(timeAxisLabel(Date.parse('2026-11-25T23:50:00Z'), Date.parse('2026-11-26T00:05:00Z'))).toBe(
      'Time (UTC): 2026-11-25 23:50:00 – 2026-11-26 00:05:00',
    );
  });
});
