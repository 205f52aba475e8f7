import { isIncidentId } from '@/server/incidents/incident-id';
import { getIncidentRepository } from '@/server/incidents/incident-store';
import { jsonError, jsonOk } from '@/server/http/responses';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!isIncidentId(id)) return jsonError(404, 'not_found', 'no such incident');
  const incident = await getIncidentRepository().get(id);
  if (!incident) return jsonError(404, 'not_found', 'no such incident');
  return jsonOk(incident);
}
