import type { NextRequest } from 'next/server';
import { timelineQuerySchema } from '@/lib/api/history-dto';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { clusterTimeline } from '@/server/auth/timeline-service';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

async function handleGet(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const { id } = await params;
  const query = parseQuery(timelineQuerySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const timeline = await clusterTimeline(viewer, id, query.data);
  // A cluster the viewer may not see answers exactly like one that does not exist.
  if (!timeline) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  return jsonOk(timeline);
}

export const GET = timedRoute('/api/clusters/[id]/timeline', handleGet);
