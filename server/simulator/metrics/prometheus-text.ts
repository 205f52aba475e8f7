/** One cumulative bucket of a classic histogram. */
export interface Bucket {
  le: number;
  count: number;
}

/**
 * The cumulative buckets of `metric` in Prometheus text exposition, summed over series whose labels include
 * `match` (label name → value).
 */
export function parseHistogram(text: string, metric: string, match: Record<string, string> = {}): Bucket[] {
  const sums = new Map<number, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}_bucket{`)) continue;
    const close = line.lastIndexOf('}');
    const labels = Object.fromEntries(
      [...line.slice(metric.length + 8, close).matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (!Object.entries(match).every(([k, v]) => labels[k] === v)) continue;
    const le = labels.le === '+Inf' ? Infinity : Number(labels.le);
    sums.set(le, (sums.get(le) ?? 0) + Number(line.slice(close + 1).trim()));
  }
  return [...sums.entries()].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/** Bucket-wise difference (a rate window): `later` − `earlier`. */
export function diffBuckets(later: Bucket[], earlier: Bucket[]): Bucket[] {
  return later.map((bucket) => ({
    le: bucket.le,
    count: bucket.count - (earlier.find((b) => b.le === bucket.le)?.count ?? 0),
  }));
}

/** histogram_quantile: linear interpolation inside the bucket holding rank q·total (NaN without observations). */
export function histogramQuantile(q: number, buckets: Bucket[]): number {
  if (buckets.length === 0) return NaN;
  const total = buckets[buckets.length - 1].count;
  if (total <= 0) return NaN;
  const rank = q * total;
  let previousLe = 0;
  let previousCount = 0;
  for (const bucket of buckets) {
    if (bucket.count >= rank) {
      if (bucket.le === Infinity) return previousLe;
      const inBucket = bucket.count - previousCount;
      if (inBucket <= 0) return bucket.le;
      return previousLe + ((bucket.le - previousLe) * (rank - previousCount)) / inBucket;
    }
    previousLe = bucket.le;
    previousCount = bucket.count;
  }
  return previousLe;
}
