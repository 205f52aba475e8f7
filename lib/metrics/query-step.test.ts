import { describe, expect, it } from 'vitest';
import { pointsPerSeries, queryStepSeconds, rateWindowSeconds } from '@/lib/metrics/query-step';
import { clusterToLocal, localToCluster } from '@/lib/metrics/time-map';

describe('queryStepSeconds', () => {
  it.each([
    // 1 h over 1,000 px: 3.6 s → 4 s, but never finer than the 30 s scrape interval
    [3600, 1000, 30, 30],
    [3600, 1000, 1, 4],
    // 30 days over 20,000 px: capped at 11,000 points → 236 s
    [30 * 86400, 20_000, 30, 236],
    [0, 800, 15, 15],
  ])('range %d s, %d px, scrape %d s → %d s', (range, px, scrape, step) => {
    const result = queryStepSeconds(range, px, scrape);
    expect(result).toBe(step);
    expect(pointsPerSeries(range, result)).toBeLessThanOrEqual(11_001);
  });

  it('keeps rate windows ≥ 4 scrapes and ≥ step + scrape', () => {
    expect(rateWindowSeconds(1, 1)).toBe(4);
    expect(rateWindowSeconds(30, 30)).toBe(120);
    expect(rateWindowSeconds(300, 30)).toBe(330);
  });
});

describe('time map', () => {
  // a virtual cluster clock running 10× faster than local time
  const anchors = [
    { local: 1000, cluster: 50_000 },
    { local: 2000, cluster: 60_000 },
    { local: 3000, cluster: 70_000 },
  ];
  it('interpolates between anchors and maps 1:1 outside them', () => {
    expect(localToCluster(anchors, 1500)).toBe(55_000);
    expect(localToCluster(anchors, 3500)).toBe(70_500);
    expect(localToCluster(anchors, 500)).toBe(49_500);
    expect(clusterToLocal(anchors, 65_000)).toBe(2500);
    expect(clusterToLocal(anchors, localToCluster(anchors, 2345))).toBeCloseTo(2345, 9);
    expect(localToCluster([], 42)).toBe(42);
  });
});
