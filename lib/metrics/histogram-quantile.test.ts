import { describe, expect, it } from 'vitest';
import { bucketBounds, histogramQuantile, normalizeBuckets, type Bucket } from '@/lib/metrics/histogram-quantile';
import { bucketAround, exponentialBuckets, POD_CREATION_LATENCY_BUCKETS } from '@/lib/metrics/ovnkube-buckets';

// Cumulative counts: 10 ≤ 0.1 s, 20 ≤ 0.2 s, 40 ≤ 0.4 s, 80 ≤ 0.8 s, 100 in total.
const classic: Bucket[] = [
  { le: 0.1, count: 10 },
  { le: 0.2, count: 20 },
  { le: 0.4, count: 40 },
  { le: 0.8, count: 80 },
  { le: Infinity, count: 100 },
];

describe('histogramQuantile (hand-checked against Prometheus BucketQuantile)', () => {
  it.each([
    // rank 50 in (0.4, 0.8]: 0.4 + 0.4 × (50 − 40) / 40 = 0.5
    [0.5, classic, 0.5],
    // rank 5 in the lowest bucket, lower bound 0: 0.1 × 5/10 = 0.05
    [0.05, classic, 0.05],
    // rank 80 reaches exactly the 0.8 bucket: its upper edge
    [0.8, classic, 0.8],
    // rank 99 only in +Inf: the highest finite upper bound
    [0.99, classic, 0.8],
    [1, classic, 0.8],
    // q = 0: rank 0 in the first bucket → its lower bound 0
    [0, classic, 0],
    // decreasing count (0.2 → 5) is raised to 10: rank 15 in (0.2, 0.4]: 0.2 + 0.2 × 5/20 = 0.25
    [
      0.5,
      [
        { le: 0.1, count: 10 },
        { le: 0.2, count: 5 },
        { le: 0.4, count: 30 },
        { le: Infinity, count: 30 },
      ],
      0.25,
    ],
    // unsorted input, duplicate le coalesced (2 + 2): rank 2 in (0, 1]: 0.5
    [
      0.5,
      [
        { le: Infinity, count: 4 },
        { le: 1, count: 2 },
        { le: 1, count: 2 },
      ],
      0.5,
    ],
    // lowest bucket with a non-positive upper bound returns that bound
    [
      0.25,
      [
        { le: -1, count: 5 },
        { le: 1, count: 10 },
        { le: Infinity, count: 10 },
      ],
      -1,
    ],
  ])('q=%f → %f', (q, buckets, expected) => {
    expect(histogramQuantile(q, buckets)).toBeCloseTo(expected, 12);
  });

  it.each([
    ['empty', []],
    ['only +Inf', [{ le: Infinity, count: 5 }]],
    [
      'no +Inf bucket',
      [
        { le: 0.1, count: 1 },
        { le: 0.2, count: 2 },
      ],
    ],
    [
      'zero observations',
      [
        { le: 0.1, count: 0 },
        { le: Infinity, count: 0 },
      ],
    ],
  ])('NaN for %s', (_, buckets) => {
    expect(histogramQuantile(0.99, buckets)).toBeNaN();
    expect(bucketBounds(0.99, buckets)).toBeUndefined();
  });

  it('follows Prometheus for q outside [0, 1] and NaN', () => {
    expect(histogramQuantile(-0.1, classic)).toBe(-Infinity);
    expect(histogramQuantile(1.1, classic)).toBe(Infinity);
    expect(histogramQuantile(Number.NaN, classic)).toBeNaN();
  });

  it('ignores float noise between adjacent counts', () => {
    const noisy = [
      { le: 1, count: 3 },
      { le: 2, count: 3 + 1e-15 },
      { le: Infinity, count: 6 },
    ];
    expect(normalizeBuckets(noisy)?.map((b) => b.count)).toStrictEqual([3, 3, 6]);
  });
});

describe('bucketBounds', () => {
  it.each([
    [0.5, { lower: 0.4, upper: 0.8 }],
    [0.05, { lower: 0, upper: 0.1 }],
    [0.99, { lower: 0.8, upper: Infinity }],
  ])('q=%f → %j', (q, expected) => {
    expect(bucketBounds(q, classic)).toStrictEqual(expected);
  });
});

describe('ovnkube bucket layout', () => {
  it('is ExponentialBuckets(0.1, 2, 15)', () => {
    expect(POD_CREATION_LATENCY_BUCKETS).toStrictEqual([
      0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 25.6, 51.2, 102.4, 204.8, 409.6, 819.2, 1638.4,
    ]);
    expect(exponentialBuckets(0.01, 2, 3)).toStrictEqual([0.01, 0.02, 0.04]);
  });

  it.each([
    [0.5, { lower: 0.4, upper: 0.8 }],
    [3.2, { lower: 1.6, upper: 3.2 }],
    [0.05, { lower: 0, upper: 0.1 }],
    [5000, { lower: 1638.4, upper: Infinity }],
  ])('%f lies in %j', (value, expected) => {
    expect(bucketAround(value, POD_CREATION_LATENCY_BUCKETS)).toStrictEqual(expected);
  });
});
