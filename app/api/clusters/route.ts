import type { ClusterListDto } from '@/lib/api/dto';
import { viewerRoute } from '@/server/auth/api-route';
import { summariesFor } from '@/server/auth/visibility';
import { getFleet } from '@/server/engine/fleet';

export const dynamic = 'force-dynamic';

/** The fleet rows the viewer may see. */
export const GET = viewerRoute('/api/clusters', {}, async ({ viewer }): Promise<ClusterListDto> => ({
  clusters: await summariesFor(viewer, getFleet().members()),
}));
