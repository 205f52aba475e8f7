/**
 * Classic bucket layouts of the ovnkube histograms (server/fixtures/metrics/ovnkube.md, read from
 * go-controller/pkg/metrics) and where a value falls among them.
 */

/** `prometheus.ExponentialBuckets(start, factor, count)`: `start · factorⁿ` for n in [0, count). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  // Rounded to 12 significant digits so 0.1·2ⁿ prints as 0.4, 0.8 … rather than float noise.
  return Array.from({ length: count }, (_, n) => Number((start * factor ** n).toPrecision(12)));
}

/** `ovnkube_controller_pod_creation_latency_seconds`: ExponentialBuckets(0.1, 2, 15), 0.1 s … 1638.4 s. */
export const POD_CREATION_LATENCY_BUCKETS: readonly number[] = exponentialBuckets(0.1, 2, 15);

/**
 * The classic bucket `(lower, upper]` that holds `value` given the finite upper edges: `lower` is 0 below the first
 * edge and `upper` is `Infinity` above the last one (the `+Inf` bucket). Values on an edge belong to the bucket that
 * edge closes (`le` semantics): 0.5 → (0.4, 0.8], 3.2 → (1.6, 3.2].
 */
export function bucketAround(value: number, edges: readonly number[]): { lower: number; upper: number } {
  let lower = 0;
  for (const edge of edges) {
    if (value <= edge) return { lower, upper: edge };
    lower = edge;
  }
  return { lower, upper: Infinity };
}
