import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { incidentLimitResponse } from '@/server/incidents/incident-limit-response';
import { MUST_GATHER_NOT_FOUND, mustGatherIncidentFor } from '@/server/offline/must-gather-requests';
import { jsonError, jsonOk } from '@/server/http/responses';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** `POST /api/must-gather/{id}/incident`: freezes an analysis the viewer may read into a durable incident. */
async function handlePost(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const refused = rejectCrossSite(request);
  if (refused) return refused;
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  try {
    const created = await mustGatherIncidentFor(viewer, (await params).id);
    if (!created) return jsonError(404, 'not_found', MUST_GATHER_NOT_FOUND);
    return jsonOk(created, 201);
  } catch (error) {
    const limited = incidentLimitResponse(error);
    if (limited) return limited;
    throw error;
  }
}

export const POST = timedRoute('/api/must-gather/[id]/incident', handlePost);
