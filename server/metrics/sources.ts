import 'server-only';
import type { ClusterConnection } from '@/server/kube/connection';
import { metricsEnv } from '@/server/env';
import { parsePrometheusConfig, prometheusFor } from './config';
import type { PodSetupLatencyDto } from '@/lib/api/latency-dto';
import { emptyLatencyDto, type MetricsSource } from './metrics-source';
import { PrometheusSource } from './prometheus-source';
import { ScrapeSource } from './scrape-source';

const holder = globalThis as unknown as { __updateHealthMetrics?: Map<string, MetricsSource> };
const registry = (holder.__updateHealthMetrics ??= new Map());

/** Real time between direct scrapes of ovnkube: 15 s, or 5 s for the embedded fleet (its clock runs faster). */
const SCRAPE_INTERVAL_MS = { live: 15_000, embedded: 5_000 } as const;

/**
 * Creates and registers the metrics source of one cluster, not yet polling (a cluster engine starts it with its active
 * tier): its configured Prometheus (`UPDATE_HEALTH_PROMETHEUS`), else a direct scrape of the ovnkube pods through the
 * API server. A source already registered under the id is stopped first; `pollScale` stretches the scrape period for
 * a fleet. Throws MetricsConfigError on a malformed configuration.
 */
export function registerMetricsSource(clusterId: string, connection: ClusterConnection, pollScale = 1): MetricsSource {
  const env = metricsEnv();
  const target = prometheusFor(parsePrometheusConfig(env.prometheus), clusterId);
  const source: MetricsSource = target
    ? new PrometheusSource(target, connection)
    : new ScrapeSource(connection, {
        intervalMs: (env.embedded ? SCRAPE_INTERVAL_MS.embedded : SCRAPE_INTERVAL_MS.live) * pollScale,
      });
  registry.get(clusterId)?.stop();
  registry.set(clusterId, source);
  return source;
}

/** The registered metrics source of a cluster. */
export function metricsSourceFor(clusterId: string): MetricsSource | undefined {
  return registry.get(clusterId);
}

/** Stops and forgets the sources of the given clusters. */
export function stopMetricsSources(clusterIds: readonly string[]): void {
  for (const id of clusterIds) {
    registry.get(id)?.stop();
    registry.delete(id);
  }
}

/** A latency query as the API takes it: cluster-time bounds (epoch ms), step seconds or the plot width in pixels. */
export interface LatencyQuery {
  from?: number;
  to?: number;
  step?: number;
  px?: number;
}

/** What a latency query without bounds covers: the last hour. */
const DEFAULT_RANGE_MS = 60 * 60 * 1000;

/**
 * Pod-setup latency quantiles of a cluster (p50/p95/p99, overall and per node) with their bucket bounds, from its
 * metrics source, over the query's range (default: the hour up to `now`, cluster time). No source is an answer too.
 */
export async function podSetupLatencyOf(
  clusterId: string,
  now: number,
  query: LatencyQuery,
): Promise<PodSetupLatencyDto> {
  const to = query.to ?? now;
  const range = {
    from: query.from ?? Math.max(0, to - DEFAULT_RANGE_MS),
    to,
    stepSeconds: query.step,
    plotPx: query.px,
  };
  const source = metricsSourceFor(clusterId);
  if (!source) return emptyLatencyDto(clusterId, 'none', range, { error: 'no metrics source for this cluster' });
  return source.podSetupLatency(clusterId, range);
}
