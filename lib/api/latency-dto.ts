/**
 * Wire types of pod-setup latency (`GET /api/clusters/{id}/metrics/pod-setup-latency`), validated with zod at the edges.
 */
import { z } from 'zod';

/**
 * One quantile point of pod-setup latency in seconds (`v` null: no data, e.g. no pod was set up in the window),
 * with the classic bucket it was interpolated in: `lower` < true value ≤ `upper` (`upper` null = `+Inf`).
 */
export const latencyPointSchema = z.object({
  t: z.number(),
  v: z.number().nullable(),
  lower: z.number().nullable().optional(),
  upper: z.number().nullable().optional(),
});

/** `GET /api/clusters/{id}/metrics/pod-setup-latency`: p50/p95/p99 over time, overall and per node. */
export const podSetupLatencySchema = z.object({
  clusterId: z.string(),
  source: z.enum(['prometheus', 'scrape', 'none']),
  metric: z.string(),
  /** Cluster time, epoch ms. */
  from: z.number(),
  to: z.number(),
  /** Seconds between points, and the rate() window the quantiles were computed over. */
  step: z.number(),
  window: z.number(),
  /** Keys `p50`, `p95`, `p99`. */
  quantiles: z.record(z.string(), z.array(latencyPointSchema)),
  perNode: z.record(z.string(), z.record(z.string(), z.array(latencyPointSchema))),
  /** The histogram's finite bucket edges (seconds). */
  bucketEdges: z.array(z.number()),
  /** Pod batching (downstream-only metrics): mean batch size over time and the config gauge, when reported. */
  batch: z
    .object({
      size: z.array(z.object({ t: z.number(), v: z.number().nullable() })),
      config: z.record(z.string(), z.number()),
    })
    .optional(),
  /** Why there is no (or only partial) data; errors of the source are data, not HTTP failures. */
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});

export type LatencyPointDto = z.infer<typeof latencyPointSchema>;
export type PodSetupLatencyDto = z.infer<typeof podSetupLatencySchema>;
