import { getFleet } from '@/server/engine/fleet';
import { jsonError, jsonOk } from '@/server/http/responses';

export const dynamic = 'force-dynamic';

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const engine = getFleet().get(id);
  if (!engine) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  return jsonOk(engine.health());
}
