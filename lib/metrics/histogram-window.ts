/**
 * PromQL `rate()` over scraped counters and `sum by (le)` of histogram buckets, so quantiles computed from a direct
 * scrape equal `histogram_quantile(q, sum by (le[, node]) (rate(x_bucket[w])))` evaluated by Prometheus 2.x.
 */
import { bucketBounds, histogramQuantile, type Bucket } from '@/lib/metrics/histogram-quantile';
import { labelKey, type HistogramSeries } from '@/lib/metrics/exposition';

/** One counter sample: `t` epoch ms. */
export interface CounterSample {
  t: number;
  v: number;
}

/**
 * `rate()` of a counter over the samples in `[end − windowMs, end]` (Prometheus 2.x `extrapolatedRate`): the
 * increase (counter resets add the value before the reset), extrapolated towards the window edges by at most half
 * an average sample interval (or to where the counter would be zero), per second. `undefined` with < 2 samples.
 */
export function extrapolatedRate(samples: readonly CounterSample[], end: number, windowMs: number): number | undefined {
  const start = end - windowMs;
  const inWindow = samples.filter((s) => s.t >= start && s.t <= end);
  if (inWindow.length < 2) return undefined;
  const first = inWindow[0];
  const last = inWindow[inWindow.length - 1];
  let increase = last.v - first.v;
  for (let i = 1; i < inWindow.length; i++) if (inWindow[i].v < inWindow[i - 1].v) increase += inWindow[i - 1].v;
  const sampled = (last.t - first.t) / 1000;
  if (sampled <= 0) return undefined;
  let toStart = (first.t - start) / 1000;
  const toEnd = (end - last.t) / 1000;
  const average = sampled / (inWindow.length - 1);
  if (increase > 0 && first.v >= 0) {
    const toZero = sampled * (first.v / increase);
    if (toZero < toStart) toStart = toZero;
  }
  const threshold = average * 1.1;
  let interval = sampled;
  interval += toStart < threshold ? toStart : average / 2;
  interval += toEnd < threshold ? toEnd : average / 2;
  return (increase * (interval / sampled)) / (windowMs / 1000);
}

/** One scrape of one target: when (epoch ms) and the histogram series it exposed for one metric. */
export interface TargetScrape {
  t: number;
  series: HistogramSeries[];
}

/**
 * `sum by (le) (rate(x_bucket[w]))` over one target's scrapes, evaluated at `end`: each (series, le) rated on its
 * own, then summed per `le`. `undefined` when no bucket has two samples in the window.
 */
export function targetBucketRates(
  scrapes: readonly TargetScrape[],
  end: number,
  windowMs: number,
): Bucket[] | undefined {
  const points = new Map<string, { le: number; samples: CounterSample[] }>();
  for (const scrape of scrapes) {
    if (scrape.t < end - windowMs || scrape.t > end) continue;
    for (const series of scrape.series) {
      const key = labelKey(series.labels);
      for (const bucket of series.buckets) {
        const id = `${key}|${bucket.le}`;
        let entry = points.get(id);
        if (!entry) {
          entry = { le: bucket.le, samples: [] };
          points.set(id, entry);
        }
        entry.samples.push({ t: scrape.t, v: bucket.count });
      }
    }
  }
  const rates: Bucket[] = [];
  for (const { le, samples } of points.values()) {
    const rate = extrapolatedRate(samples, end, windowMs);
    if (rate !== undefined) rates.push({ le, count: rate });
  }
  return rates.length > 0 ? sumByLe([rates]) : undefined;
}

/** `sum by (le)` of several bucket lists. */
export function sumByLe(lists: readonly (readonly Bucket[])[]): Bucket[] {
  const sums = new Map<number, number>();
  for (const list of lists) for (const b of list) sums.set(b.le, (sums.get(b.le) ?? 0) + b.count);
  return [...sums.entries()].sort((a, b) => a[0] - b[0]).map(([le, count]) => ({ le, count }));
}

/** A quantile and the classic bucket it was interpolated in (`upper` Infinity for the `+Inf` bucket). */
export interface QuantileEstimate {
  value: number;
  lower: number;
  upper: number;
}

/** `histogram_quantile(q, buckets)` with its bucket bounds; `undefined` where Prometheus answers NaN. */
export function quantileEstimate(q: number, buckets: readonly Bucket[]): QuantileEstimate | undefined {
  const value = histogramQuantile(q, buckets);
  const bounds = bucketBounds(q, buckets);
  if (!Number.isFinite(value) || !bounds) return undefined;
  return { value, lower: bounds.lower, upper: bounds.upper };
}

/**
 * The bounds of the classic bucket a `histogram_quantile` result from Prometheus lies in, knowing the finite edges:
 * a value on an edge belongs to the bucket that edge closes; a value at (or above) the highest edge is how
 * Prometheus reports a rank in `+Inf`, so its bounds are (highest edge, Infinity).
 */
export function boundsOfQuantile(value: number, edges: readonly number[]): { lower: number; upper: number } {
  const last = edges[edges.length - 1];
  if (last !== undefined && value >= last) return { lower: last, upper: Infinity };
  let lower = 0;
  for (const edge of edges) {
    if (value <= edge) return { lower, upper: edge };
    lower = edge;
  }
  return { lower, upper: Infinity };
}
