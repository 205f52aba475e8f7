import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { MUST_GATHER_NOT_FOUND, resultFor } from '@/server/offline/must-gather-requests';
import { jsonError, jsonOk } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** `GET /api/must-gather/{id}`: a stored analysis, for its owner and administrators, while the server keeps it. */
async function handleGet(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const result = await resultFor(viewer, (await params).id);
  if (!result) return jsonError(404, 'not_found', MUST_GATHER_NOT_FOUND);
  return jsonOk(result);
}

export const GET = timedRoute('/api/must-gather/[id]', handleGet);
