import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { healthFor, seriesFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const querySchema = z
  .object({
    from: z.coerce.number().int().nonnegative().optional(),
    to: z.coerce.number().int().nonnegative().optional(),
    max: z.coerce.number().int().min(2).max(1_000).default(1_000),
  })
  .refine(
    (query) => query.from === undefined || query.to === undefined || query.from <= query.to,
    'from must not be after to',
  );

async function handleGet(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const { id } = await params;
  const query = parseQuery(querySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const engine = getFleet().get(id);
  if (!engine || !(await healthFor(viewer, engine))) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  return jsonOk(await seriesFor(viewer, id, engine.series(query.data.from, query.data.to, query.data.max)));
}

export const GET = timedRoute('/api/clusters/[id]/series', handleGet);
