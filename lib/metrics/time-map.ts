/**
 * Maps between local time (when this server scraped or Prometheus stored a sample) and cluster time (what
 * detectors and charts use). Anchors pair both clocks at the same instant; a virtual cluster clock may run faster
 * than real time, so the map is piecewise linear between anchors, and 1:1 beyond them.
 */

/** The same instant on both clocks (epoch ms). */
export interface TimeAnchor {
  local: number;
  cluster: number;
}

function interpolate(anchors: readonly TimeAnchor[], value: number, from: 'local' | 'cluster'): number {
  const to = from === 'local' ? 'cluster' : 'local';
  if (anchors.length === 0) return value;
  const first = anchors[0];
  const last = anchors[anchors.length - 1];
  if (value <= first[from]) return first[to] - (first[from] - value);
  if (value >= last[from]) return last[to] + (value - last[from]);
  let lo = 0;
  let hi = anchors.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (anchors[mid][from] <= value) lo = mid;
    else hi = mid;
  }
  const a = anchors[lo];
  const b = anchors[hi];
  const span = b[from] - a[from];
  return span <= 0 ? a[to] : a[to] + ((value - a[from]) / span) * (b[to] - a[to]);
}

/** Cluster time of a local instant; anchors sorted by time, both clocks non-decreasing. */
export function localToCluster(anchors: readonly TimeAnchor[], local: number): number {
  return interpolate(anchors, local, 'local');
}

/** Local time of a cluster instant (inverse of {@link localToCluster}). */
export function clusterToLocal(anchors: readonly TimeAnchor[], cluster: number): number {
  return interpolate(anchors, cluster, 'cluster');
}
