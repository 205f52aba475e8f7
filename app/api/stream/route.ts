import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { streamFor, unseenClusters } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { mapSource, sseResponse } from '@/server/engine/sse';
import { forView } from '@/lib/live/summary-stream';
import { jsonError, parseQuery } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const clusterIds = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9.,]*[a-z0-9])?$/i, 'a comma-separated list of cluster ids')
  .optional();

const querySchema = z.object({
  clusters: clusterIds,
  /** `summary`: fleet rows only (the fleet page); `detail` (default): health, samples and transitions. */
  view: z.enum(['detail', 'summary']).default('detail'),
  /** In a `summary` stream, the clusters sent whole (another tab of the browser shows their page). */
  detail: clusterIds,
});

async function handleGet(request: NextRequest) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const query = parseQuery(querySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const fleet = getFleet();
  const ids = query.data.clusters?.split(',').filter(Boolean) ?? [];
  const detail = query.data.detail?.split(',').filter(Boolean) ?? [];
  // Hidden and unknown clusters get the same answer, as on every other route.
  const unknown = await unseenClusters(viewer, [...new Set([...ids, ...detail])], (id) => fleet.get(id));
  if (unknown.length > 0)
    return jsonError(404, 'not_found', `no cluster named ${unknown.map((id) => `"${id}"`).join(', ')}`);
  const view = query.data.view;
  const whole = new Set(detail);
  return sseResponse(
    mapSource(
      // The clusters whose page is open read their active tier while the stream lasts.
      streamFor(viewer, fleet.streamSource(ids, view === 'detail' ? ids : detail), (id) => fleet.get(id)),
      (message) => forView(message, view, whole),
    ),
    request.signal,
  );
}

export const GET = timedRoute('/api/stream', handleGet);
