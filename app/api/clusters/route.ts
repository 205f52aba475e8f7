import { clusterListFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { jsonOk } from '@/server/http/responses';
import type { ClusterListDto } from '@/lib/api/dto';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

async function handleGet(request: Request) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  return jsonOk<ClusterListDto>(await clusterListFor(viewer, getFleet()));
}

export const GET = timedRoute('/api/clusters', handleGet);
