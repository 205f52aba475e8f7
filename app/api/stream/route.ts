import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { streamFor, unseenClusters } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { mapSource, sseResponse } from '@/server/http/sse';
import { forView } from '@/lib/live/summary-stream';
import { jsonError, parseQuery } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  clusters: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.,]*[a-z0-9])?$/i, 'a comma-separated list of cluster ids')
    .optional(),
  /** `summary`: fleet rows only (the fleet page); `detail` (default): health, samples and transitions. */
  view: z.enum(['detail', 'summary']).default('detail'),
});

async function handleGet(request: NextRequest) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const query = parseQuery(querySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const fleet = getFleet();
  const ids = query.data.clusters?.split(',').filter(Boolean) ?? [];
  // Hidden and unknown clusters get the same answer, as on every other route.
  const unknown = await unseenClusters(viewer, ids, (id) => fleet.get(id));
  if (unknown.length > 0)
    return jsonError(404, 'not_found', `no cluster named ${unknown.map((id) => `"${id}"`).join(', ')}`);
  const view = query.data.view;
  return sseResponse(
    mapSource(
      streamFor(viewer, fleet.streamSource(ids), (id) => fleet.get(id)),
      (message) => forView(message, view),
    ),
    request.signal,
  );
}

export const GET = timedRoute('/api/stream', handleGet);
