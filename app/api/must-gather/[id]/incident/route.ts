import { createIncident } from '@/server/incidents/incident-service';
import { getIncidentRepository } from '@/server/incidents/incident-store';
import { mustGatherResults } from '@/server/offline/result-store';
import { jsonError, jsonOk } from '@/server/http/responses';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** `POST /api/must-gather/{id}/incident`: freezes a stored must-gather analysis into a durable incident. */
async function handlePost(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const refused = rejectCrossSite(request);
  if (refused) return refused;
  const { id } = await params;
  const store = mustGatherResults();
  const result = store.get(id);
  const snapshot = store.snapshot(id);
  if (!result || !snapshot) return jsonError(404, 'not_found', 'no such must-gather analysis (results are kept in memory and expire)');
  const source = {
    id: result.health.cluster.id,
    name: `${result.health.cluster.name} (must-gather ${result.label})`,
    health: () => result.health,
    series: () => result.series,
    snapshot: () => snapshot,
  };
  return jsonOk(await createIncident(source, getIncidentRepository()), 201);
}

export const POST = timedRoute('/api/must-gather/[id]/incident', handlePost);
