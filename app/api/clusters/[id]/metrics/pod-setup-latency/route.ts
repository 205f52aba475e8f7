import { z } from 'zod';
import { clusterRoute } from '@/server/auth/api-route';
import { clusterMetricsRefusal } from '@/server/auth/visibility';
import { podSetupLatencyOf } from '@/server/metrics/sources';

export const dynamic = 'force-dynamic';

const querySchema = z
  .object({
    /** Cluster time, epoch ms; default: the last hour. */
    from: z.coerce.number().int().nonnegative().optional(),
    to: z.coerce.number().int().nonnegative().optional(),
    /** Seconds between points; default from the plot width. */
    step: z.coerce.number().int().min(1).max(86_400).optional(),
    /** Plot width in pixels (chooses the step when `step` is absent). */
    px: z.coerce.number().int().min(1).max(11_000).optional(),
  })
  .strict()
  .refine(
    (query) => query.from === undefined || query.to === undefined || query.from <= query.to,
    'from must not be after to',
  );

/**
 * Pod-setup latency quantiles (p50/p95/p99, overall and per node) with their bucket bounds, from the cluster's
 * metrics source, for a viewer who may see cluster-wide metrics.
 */
export const GET = clusterRoute(
  '/api/clusters/[id]/metrics/pod-setup-latency',
  { query: querySchema, refuse: ({ viewer, cluster }) => clusterMetricsRefusal(viewer, cluster.member.id) },
  ({ cluster, query }) => podSetupLatencyOf(cluster.member.id, cluster.member.now(), query),
);
