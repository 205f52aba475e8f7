import { viewerRoute } from '@/server/auth/api-route';
import { clusterListFor } from '@/server/auth/visibility';
import { getFleet } from '@/server/engine/fleet';
import { clusterListAnswer } from '@/server/http/cluster-list-json';

export const dynamic = 'force-dynamic';

/** The fleet rows the viewer may see, with the fleet's membership (discovered, connected, waiting). */
export const GET = viewerRoute('/api/clusters', {}, ({ viewer, request }) =>
  clusterListFor(viewer, getFleet()).then((list) => clusterListAnswer(list, request.headers.get('accept-encoding'))),
);
