import { describe, expect, it } from 'vitest';
import { fleetPollScale } from './fleet-build';

describe('fleetPollScale', () => {
  it('leaves fleets up to 200 clusters at the single-cluster periods and keeps larger ones at the rate of 200', () => {
    expect([1, 7, 200].map(fleetPollScale)).toEqual([1, 1, 1]);
    expect(fleetPollScale(500)).toBe(2.5);
    expect(500 / (5 * fleetPollScale(500))).toBe(200 / 5);
  });
});
