import 'server-only';
import type { LatencyPointDto, PodSetupLatencyDto } from '@/lib/api/latency-dto';
import type { LatencySeries } from '@/lib/health/types';
import type { Alert } from '@/lib/health/update-progress/types';
import { POD_CREATION_LATENCY_BUCKETS } from '@/lib/metrics/ovnkube-buckets';

/** The histogram behind failure mode D. */
export const POD_CREATION_LATENCY = 'ovnkube_controller_pod_creation_latency_seconds';
/** Downstream-only batching metrics (shown when present, never required). */
export const POD_BATCH_SIZE = 'ovnkube_controller_pod_batch_size';
export const POD_BATCH_CONFIG = 'ovnkube_controller_pod_batch_config';

/** The quantiles served, by key. */
export const QUANTILES: readonly (readonly [key: string, q: number])[] = [
  ['p50', 0.5],
  ['p95', 0.95],
  ['p99', 0.99],
];

/** A range request in cluster time (epoch ms); `stepSeconds` wins over `plotPx` (default 1,000 px). */
export interface LatencyRangeQuery {
  from: number;
  to: number;
  stepSeconds?: number;
  plotPx?: number;
}

/** Where pod-setup latency and alerts of one cluster come from. */
export interface MetricsSource {
  readonly kind: 'prometheus' | 'scrape';
  /** Starts background polling (what the engine's snapshot reads). */
  start(): void;
  stop(): void;
  /** The latest polled quantile series (cluster time), or `undefined` when the source has nothing to say. */
  latency(): LatencySeries | undefined;
  /**
   * True once a poll of pod-setup latency ended since `start`, whatever it found. Before that, no series is not yet
   * known, which is not "no source".
   */
  polled(): boolean;
  /** Firing and pending alerts, or `undefined` when there is no alerts source. */
  alerts(): Alert[] | undefined;
  /** Quantile series over a range for the API. Errors are part of the answer. */
  podSetupLatency(clusterId: string, query: LatencyRangeQuery): Promise<PodSetupLatencyDto>;
}

/** An answer without data (no source, or a source error). */
export function emptyLatencyDto(
  clusterId: string,
  source: PodSetupLatencyDto['source'],
  query: LatencyRangeQuery,
  extra: Partial<PodSetupLatencyDto> = {},
): PodSetupLatencyDto {
  return {
    clusterId,
    source,
    metric: POD_CREATION_LATENCY,
    from: query.from,
    to: query.to,
    step: query.stepSeconds ?? 0,
    window: 0,
    quantiles: Object.fromEntries(QUANTILES.map(([key]) => [key, []])),
    perNode: {},
    bucketEdges: [...POD_CREATION_LATENCY_BUCKETS],
    ...extra,
  };
}

/** JSON has no Infinity: the `+Inf` bucket's upper edge travels as null. */
export function latencyPoint(
  t: number,
  estimate: { value: number; lower: number; upper: number } | undefined,
): LatencyPointDto {
  if (!estimate) return { t, v: null };
  return {
    t,
    v: estimate.value,
    lower: estimate.lower,
    upper: Number.isFinite(estimate.upper) ? estimate.upper : null,
  };
}

/** Every `stepMs`, the last point at or before it: a cheap, order-preserving thinning of a dense series. */
export function thinToStep<T>(points: readonly T[], stepMs: number, timeOf: (point: T) => number): T[] {
  if (stepMs <= 0) return [...points];
  const out: T[] = [];
  let bucket = -Infinity;
  for (const point of points) {
    const b = Math.floor(timeOf(point) / stepMs);
    if (b === bucket) out[out.length - 1] = point;
    else out.push(point);
    bucket = b;
  }
  return out;
}
