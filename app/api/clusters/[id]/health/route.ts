import { healthFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { jsonError, jsonOk } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

async function handleGet(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const { id } = await params;
  const fleet = getFleet();
  const engine = fleet.get(id);
  // A cluster the viewer may not see answers exactly like one that does not exist.
  const health = engine && (await healthFor(viewer, engine));
  if (!health) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  fleet.lookedAt(id);
  return jsonOk(health);
}

export const GET = timedRoute('/api/clusters/[id]/health', handleGet);
