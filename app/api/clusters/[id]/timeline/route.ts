import { z } from 'zod';
import { timelineQuerySchema } from '@/lib/api/history-dto';
import { noCluster, viewerRoute } from '@/server/auth/api-route';
import { clusterTimeline } from '@/server/auth/timeline-service';

export const dynamic = 'force-dynamic';

/** A cluster's finding history between `from` and `to` (or at `at`), as the viewer may see it. */
export const GET = viewerRoute(
  '/api/clusters/[id]/timeline',
  {
    params: z.object({ id: z.string() }),
    query: timelineQuerySchema,
    notFound: (params) => noCluster(params.id ?? ''),
  },
  ({ viewer, params, query }) => clusterTimeline(viewer, params.id, query),
);
