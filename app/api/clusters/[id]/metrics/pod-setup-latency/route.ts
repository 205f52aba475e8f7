import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { healthFor, mayReadClusterMetrics } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';
import { emptyLatencyDto } from '@/server/metrics/metrics-source';
import { metricsSourceFor } from '@/server/metrics/sources';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const DEFAULT_RANGE_MS = 60 * 60 * 1000;

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

/** Pod-setup latency quantiles (p50/p95/p99, overall and per node) with their bucket bounds, from the cluster's metrics source. */
async function handleGet(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const { id } = await params;
  const query = parseQuery(querySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const engine = getFleet().get(id);
  if (!engine || !(await healthFor(viewer, engine))) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  if (!(await mayReadClusterMetrics(viewer, id)))
    return jsonError(
      403,
      'forbidden',
      "cluster-wide metrics need list pods at the cluster scope; ask for cluster-reader or use the console's namespace metrics",
    );
  const to = query.data.to ?? engine.now();
  const range = {
    from: query.data.from ?? Math.max(0, to - DEFAULT_RANGE_MS),
    to,
    stepSeconds: query.data.step,
    plotPx: query.data.px,
  };
  const source = metricsSourceFor(id);
  if (!source) return jsonOk(emptyLatencyDto(id, 'none', range, { error: 'no metrics source for this cluster' }));
  return jsonOk(await source.podSetupLatency(id, range));
}

export const GET = timedRoute('/api/clusters/[id]/metrics/pod-setup-latency', handleGet);
