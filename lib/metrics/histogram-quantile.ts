/**
 * PromQL `histogram_quantile` over classic (le-bucketed) histograms, ported from Prometheus
 * `promql/quantile.go` (`BucketQuantile`), so quantiles computed from scraped counters equal Prometheus' own.
 */

/** One cumulative bucket: `count` observations ≤ `le` (seconds for latency histograms; `Infinity` for `+Inf`). */
export interface Bucket {
  le: number;
  count: number;
}

/** Prometheus' tolerance for float noise between adjacent cumulative counts (`smallDeltaTolerance`). */
const SMALL_DELTA_TOLERANCE = 1e-12;
const MIN_NORMAL = 2.2250738585072014e-308;

function almostEqual(a: number, b: number, epsilon: number): boolean {
  if (a === b) return true;
  const absSum = Math.abs(a) + Math.abs(b);
  const diff = Math.abs(a - b);
  if (a === 0 || b === 0 || absSum < MIN_NORMAL) return diff < epsilon * MIN_NORMAL;
  return diff / Math.min(absSum, Number.MAX_VALUE) < epsilon;
}

/**
 * Sorted, coalesced (equal `le` summed) and monotonic buckets as Prometheus evaluates them, or `undefined` when
 * Prometheus would answer NaN for structural reasons (no `+Inf` bucket, fewer than 2 buckets). Counts that
 * decrease (e.g. scraped mid-update) are raised to the previous count, as `ensureMonotonicAndIgnoreSmallDeltas`.
 */
export function normalizeBuckets(buckets: readonly Bucket[]): Bucket[] | undefined {
  if (buckets.length === 0) return undefined;
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  if (sorted[sorted.length - 1].le !== Infinity) return undefined;
  const merged: Bucket[] = [];
  for (const b of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.le === b.le) last.count += b.count;
    else merged.push({ le: b.le, count: b.count });
  }
  let prev = merged[0].count;
  for (let i = 1; i < merged.length; i++) {
    const curr = merged[i].count;
    if (curr === prev) continue;
    if (almostEqual(prev, curr, SMALL_DELTA_TOLERANCE) || curr < prev) {
      merged[i].count = prev;
      continue;
    }
    prev = curr;
  }
  return merged.length < 2 ? undefined : merged;
}

interface Located {
  index: number;
  buckets: Bucket[];
  rank: number;
}

function locate(q: number, buckets: readonly Bucket[]): Located | undefined {
  const norm = normalizeBuckets(buckets);
  if (!norm) return undefined;
  const observations = norm[norm.length - 1].count;
  if (observations === 0 || Number.isNaN(observations)) return undefined;
  const rank = q * observations;
  // sort.Search over every bucket but +Inf: the first whose cumulative count reaches the rank.
  let index = norm.length - 1;
  for (let i = 0; i < norm.length - 1; i++) {
    if (norm[i].count >= rank) {
      index = i;
      break;
    }
  }
  return { index, buckets: norm, rank };
}

/**
 * The φ-quantile (`q` in [0, 1]) of a classic histogram with Prometheus semantics:
 * - linear interpolation inside the bucket that holds the rank `q × total`;
 * - the lowest bucket's lower bound is 0 (unless its upper bound is ≤ 0: then that upper bound is returned);
 * - a rank in the `+Inf` bucket returns the upper bound of the highest finite bucket;
 * - NaN for `q` NaN, no `+Inf` bucket, fewer than 2 buckets, or zero observations; −Inf for q < 0, +Inf for q > 1.
 */
export function histogramQuantile(q: number, buckets: readonly Bucket[]): number {
  if (Number.isNaN(q)) return NaN;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const found = locate(q, buckets);
  if (!found) return NaN;
  const { index, buckets: b } = found;
  let { rank } = found;
  if (index === b.length - 1) return b[b.length - 2].le;
  if (index === 0 && b[0].le <= 0) return b[0].le;
  let start = 0;
  let count = b[index].count;
  if (index > 0) {
    start = b[index - 1].le;
    count -= b[index - 1].count;
    rank -= b[index - 1].count;
  }
  return start + (b[index].le - start) * (rank / count);
}

/** The edges of the bucket a quantile was interpolated in: the true value lies somewhere in `(lower, upper]`. */
export interface BucketBounds {
  lower: number;
  upper: number;
}

/**
 * The bucket bounds around `histogramQuantile(q, buckets)`, e.g. a p99 of 0.5 s from buckets 0.1·2ⁿ lies in
 * (0.4, 0.8]. For a rank in `+Inf` the bounds are (highest finite edge, Infinity). `undefined` whenever the
 * quantile is not a finite interpolation (NaN cases, q outside [0, 1]).
 */
export function bucketBounds(q: number, buckets: readonly Bucket[]): BucketBounds | undefined {
  if (Number.isNaN(q) || q < 0 || q > 1) return undefined;
  const found = locate(q, buckets);
  if (!found) return undefined;
  const { index, buckets: b } = found;
  if (index === b.length - 1) return { lower: b[b.length - 2].le, upper: Infinity };
  if (index === 0) return { lower: b[0].le <= 0 ? b[0].le : 0, upper: b[0].le };
  return { lower: b[index - 1].le, upper: b[index].le };
}
