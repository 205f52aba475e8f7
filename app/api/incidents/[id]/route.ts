import { incidentFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { isIncidentId } from '@/server/incidents/incident-id';
import { getIncidentRepository } from '@/server/incidents/incident-store';
import { jsonError, jsonOk } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

async function handleGet(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const { id } = await params;
  if (!isIncidentId(id)) return jsonError(404, 'not_found', 'no such incident');
  const stored = await getIncidentRepository().get(id);
  const incident = stored && (await incidentFor(viewer, stored));
  if (!incident) return jsonError(404, 'not_found', 'no such incident');
  return jsonOk(incident);
}

export const GET = timedRoute('/api/incidents/[id]', handleGet);
