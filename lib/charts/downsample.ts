/** Default cap on points per chart series (the product's quality bar). */
export const MAX_POINTS = 1000;

/**
 * Min-max downsampling over time-ordered points with one or more numeric channels. Keeps the first and last point
 * and, in each of the equal-width buckets in between, the points holding the minimum and maximum of every channel,
 * so spikes and dips survive. The result has at most `max` points, in the original order.
 *
 * `valuesOf` returns the channels of a point in a fixed order; `null`/`undefined` channels are gaps and are ignored.
 */
export function downsampleBy<T>(
  points: readonly T[],
  max: number,
  valuesOf: (point: T) => ReadonlyArray<number | null | undefined>,
): T[] {
  if (points.length <= max) return points.slice();
  if (max < 2) return max === 1 ? [points[points.length - 1]] : [];
  const channels = points.reduce((n, p) => Math.max(n, valuesOf(p).length), 1);
  const inner = points.length - 2;
  // Each bucket may keep a min and a max per channel; size the bucket count so the worst case still fits.
  const buckets = Math.floor((max - 2) / (2 * channels));
  if (buckets === 0) return [points[0], points[points.length - 1]];
  const keep = new Set<number>([0, points.length - 1]);
  for (let b = 0; b < buckets; b++) {
    const from = 1 + Math.floor((b * inner) / buckets);
    const to = 1 + Math.floor(((b + 1) * inner) / buckets);
    for (let c = 0; c < channels; c++) {
      let minI = -1,
        maxI = -1,
        minV = Infinity,
        maxV = -Infinity;
      for (let i = from; i < to; i++) {
        const v = valuesOf(points[i])[c];
        if (v == null || Number.isNaN(v)) continue;
        if (v < minV) {
          minV = v;
          minI = i;
        }
        if (v > maxV) {
          maxV = v;
          maxI = i;
        }
      }
      if (minI >= 0) keep.add(minI);
      if (maxI >= 0) keep.add(maxI);
    }
    // A bucket with only gaps still keeps one point so the gap stays visible on the chart.
    if (from < to && ![...Array(to - from).keys()].some((k) => keep.has(from + k))) keep.add(from);
  }
  return [...keep].sort((a, b) => a - b).map((i) => points[i]);
}

/** {@link downsampleBy} for `{t, v}` points. */
export function downsample<P extends { v: number | null }>(points: readonly P[], max: number = MAX_POINTS): P[] {
  return downsampleBy(points, max, (p) => [p.v]);
}

/** {@link downsampleBy} for multi-valued samples (`values` by name); channels are the union of names, sorted. */
export function downsampleSamples<P extends { values: Record<string, number | null> }>(
  points: readonly P[],
  max: number = MAX_POINTS,
): P[] {
  if (points.length <= max) return points.slice();
  const names = [...new Set(points.flatMap((p) => Object.keys(p.values)))].sort();
  return downsampleBy(points, max, (p) => names.map((n) => p.values[n]));
}
