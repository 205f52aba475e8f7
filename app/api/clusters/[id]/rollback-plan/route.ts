import { z } from 'zod';
import { clusterRoute } from '@/server/auth/api-route';
import { rollbackPlanRefusal } from '@/server/auth/visibility';
import { rollbackPlanFor } from '@/server/engine/rollback-plan';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  to: z.string().trim().min(1, 'to must name a release version').max(100),
  acceptCrossMinorRisk: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((accept) => accept === '1' || accept === 'true'),
});

/** The rollback plan to `?to=` for a viewer who may read everything it checks. */
export const GET = clusterRoute(
  '/api/clusters/[id]/rollback-plan',
  { query: querySchema, refuse: ({ cluster }) => rollbackPlanRefusal(cluster.health) },
  ({ cluster, query }) =>
    rollbackPlanFor(cluster.member, cluster.health, {
      target: query.to,
      acceptCrossMinorRisk: query.acceptCrossMinorRisk,
    }),
);
