import { describe, expect, it } from 'vitest';
import {
  boundsOfQuantile,
  extrapolatedRate,
  quantileEstimate,
  sumByLe,
  targetBucketRates,
  type TargetScrape,
} from '@/lib/metrics/histogram-window';
import { POD_CREATION_LATENCY_BUCKETS } from '@/lib/metrics/ovnkube-buckets';

const s = (t: number, v: number) => ({ t: t * 1000, v });

describe('extrapolatedRate (Prometheus 2.x rate)', () => {
  it('needs two samples in the window', () => {
    expect(extrapolatedRate([], 60_000, 60_000)).toBeUndefined();
    expect(extrapolatedRate([s(10, 5)], 60_000, 60_000)).toBeUndefined();
    expect(extrapolatedRate([s(-5, 1), s(10, 5)], 60_000, 60_000)).toBeUndefined();
  });

  it('extrapolates to the window edges when samples sit close to them', () => {
    // samples every 15 s at 0..60 in a 60 s window ending at 60: increase 40 over 60 s, no extrapolation needed.
    expect(extrapolatedRate([s(0, 100), s(15, 110), s(30, 120), s(45, 130), s(60, 140)], 60_000, 60_000)).toBeCloseTo(
      40 / 60,
      12,
    );
    // window (2, 62], samples 5..50 every 15 s: start gap 3 s < 16.5 → +3; end gap 12 s < 16.5 → +12; 45 + 15 = 60 s.
    // increase 30 × 60/45 = 40 over 60 s.
    expect(extrapolatedRate([s(5, 100), s(20, 110), s(35, 120), s(50, 130)], 62_000, 60_000)).toBeCloseTo(40 / 60, 12);
  });

  it('extrapolates by half an interval when the gap is larger, and not below zero', () => {
    // window [0, 100], samples at 40, 50, 60 (avg 10 s): gaps 40 s → +5 s each side: 20 × 30/20 = 30 / 100 s.
    expect(extrapolatedRate([s(40, 100), s(50, 110), s(60, 120)], 100_000, 100_000)).toBeCloseTo(0.3, 12);
    // counter from 0: zero point 0 s before the first sample caps the start extrapolation at 0.
    expect(extrapolatedRate([s(40, 0), s(50, 10), s(60, 20)], 100_000, 100_000)).toBeCloseTo(25 / 100, 12);
  });

  it('adds the value before a counter reset', () => {
    // 10 → 20, reset to 5: increase 20 − 10 + 20 = 15 … window [0,20] sampled 0..20 exactly.
    expect(extrapolatedRate([s(0, 10), s(10, 20), s(20, 5)], 20_000, 20_000)).toBeCloseTo(15 / 20, 12);
  });

  it('is 0 for a flat counter', () => {
    expect(extrapolatedRate([s(0, 7), s(30, 7), s(60, 7)], 60_000, 60_000)).toBe(0);
  });
});

describe('targetBucketRates and quantiles from scrapes', () => {
  const scrape = (t: number, counts: [number, number][]): TargetScrape => ({
    t: t * 1000,
    series: [{ labels: {}, buckets: counts.map(([le, count]) => ({ le, count })) }],
  });

  it('computes histogram_quantile over a window like PromQL', () => {
    // 0 → 60 s: +10 ≤ 0.1, +10 in (0.1, 0.2], +20 in (0.2, 0.4], +40 in (0.4, 0.8], +20 in +Inf (100 new).
    const scrapes = [
      scrape(0, [
        [0.1, 5],
        [0.2, 5],
        [0.4, 5],
        [0.8, 5],
        [Infinity, 5],
      ]),
      scrape(60, [
        [0.1, 15],
        [0.2, 25],
        [0.4, 45],
        [0.8, 85],
        [Infinity, 105],
      ]),
    ];
    const rates = targetBucketRates(scrapes, 60_000, 60_000)!;
    expect(rates.map((b) => b.count * 60)).toEqual([10, 20, 40, 80, 100].map((n) => expect.closeTo(n, 9)));
    // rank 50 in (0.4, 0.8]: 0.4 + 0.4 × (50 − 40) / 40 = 0.5
    expect(quantileEstimate(0.5, rates)).toEqual({ value: expect.closeTo(0.5, 12), lower: 0.4, upper: 0.8 });
    // rank 99 lies in +Inf: Prometheus answers the highest finite edge; bounds (0.8, +Inf)
    expect(quantileEstimate(0.99, rates)).toEqual({ value: 0.8, lower: 0.8, upper: Infinity });
  });

  it('answers nothing for an idle histogram (zero rate) or a single scrape', () => {
    const idle = [
      scrape(0, [
        [0.1, 5],
        [Infinity, 5],
      ]),
      scrape(30, [
        [0.1, 5],
        [Infinity, 5],
      ]),
    ];
    expect(quantileEstimate(0.99, targetBucketRates(idle, 30_000, 60_000)!)).toBeUndefined();
    expect(targetBucketRates([idle[0]], 30_000, 60_000)).toBeUndefined();
  });

  it('handles an empty lowest bucket and a counter reset inside the window', () => {
    const scrapes = [
      scrape(0, [
        [0.1, 0],
        [0.2, 10],
        [Infinity, 10],
      ]),
      scrape(10, [
        [0.1, 0],
        [0.2, 20],
        [Infinity, 20],
      ]),
      // pod restarted: counters start again
      scrape(20, [
        [0.1, 0],
        [0.2, 10],
        [Infinity, 10],
      ]),
    ];
    const rates = targetBucketRates(scrapes, 20_000, 20_000)!;
    // increase 10 − 10, plus 20 before the reset (the restarted counter counted 10 from zero): 20
    expect(rates.map((b) => b.count * 20)).toEqual([0, 20, 20].map((n) => expect.closeTo(n, 9)));
    // rank 10 of 20 in (0.1, 0.2] with nothing below: 0.1 + 0.1 × 10/20
    expect(quantileEstimate(0.5, rates)?.value).toBeCloseTo(0.15, 12);
  });

  it('sums by le across targets (series and nodes)', () => {
    expect(
      sumByLe([
        [
          { le: 1, count: 1 },
          { le: Infinity, count: 2 },
        ],
        [
          { le: Infinity, count: 3 },
          { le: 1, count: 0.5 },
        ],
      ]),
    ).toEqual([
      { le: 1, count: 1.5 },
      { le: Infinity, count: 5 },
    ]);
  });
});

describe('boundsOfQuantile', () => {
  it.each([
    [0.5, 0.4, 0.8],
    [3.2, 1.6, 3.2],
    [6.17, 3.2, 6.4],
    [0.05, 0, 0.1],
    [1638.4, 1638.4, Infinity],
  ])('%f lies in (%f, %f]', (value, lower, upper) => {
    expect(boundsOfQuantile(value, POD_CREATION_LATENCY_BUCKETS)).toEqual({ lower, upper });
  });
});
