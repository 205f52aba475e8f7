import { mustGatherResults } from '@/server/offline/result-store';
import { jsonError, jsonOk } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** `GET /api/must-gather/{id}`: a stored analysis, while the server still keeps it. */
async function handleGet(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const result = mustGatherResults().get(id);
  if (!result) return jsonError(404, 'not_found', 'no such must-gather analysis (results are kept in memory and expire)');
  return jsonOk(result);
}

export const GET = timedRoute('/api/must-gather/[id]', handleGet);
