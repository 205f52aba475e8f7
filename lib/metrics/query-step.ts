/**
 * Resolution rules for Prometheus range queries: the step follows the plot width and never asks for more than
 * Prometheus' 11,000 points per series; rate windows cover at least four scrapes (Grafana's `$__rate_interval`).
 */

/** Prometheus rejects range queries with more points per series than this. */
export const MAX_POINTS_PER_SERIES = 11_000;

/** `step = max(scrapeInterval, ceil(range / min(plotPx, 11000)))`, in whole seconds (≥ 1). */
export function queryStepSeconds(rangeSeconds: number, plotPx: number, scrapeIntervalSeconds: number): number {
  const px = Math.max(1, Math.min(Math.floor(plotPx) || 1, MAX_POINTS_PER_SERIES));
  const byWidth = Math.ceil(Math.max(0, rangeSeconds) / px);
  return Math.max(1, Math.ceil(scrapeIntervalSeconds), byWidth);
}

/** The `rate()` window for a step: `max(step + scrapeInterval, 4 × scrapeInterval)` seconds. */
export function rateWindowSeconds(stepSeconds: number, scrapeIntervalSeconds: number): number {
  return Math.max(Math.ceil(stepSeconds + scrapeIntervalSeconds), Math.ceil(4 * scrapeIntervalSeconds));
}

/** Points a range query returns per series (both ends included). */
export function pointsPerSeries(rangeSeconds: number, stepSeconds: number): number {
  return Math.floor(Math.max(0, rangeSeconds) / stepSeconds) + 1;
}
