import { summariesFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { jsonOk } from '@/server/http/responses';
import type { ClusterListDto } from '@/lib/api/dto';

export const dynamic = 'force-dynamic';

export async function GET(request: Request) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  return jsonOk<ClusterListDto>({ clusters: await summariesFor(viewer, getFleet().members()) });
}
