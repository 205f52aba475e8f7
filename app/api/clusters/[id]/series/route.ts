import { z } from 'zod';
import { clusterRoute } from '@/server/auth/api-route';
import { seriesFor } from '@/server/auth/visibility';

export const dynamic = 'force-dynamic';

const querySchema = z
  .object({
    from: z.coerce.number().int().nonnegative().optional(),
    to: z.coerce.number().int().nonnegative().optional(),
    max: z.coerce.number().int().min(2).max(1_000).default(1_000),
  })
  .refine(
    (query) => query.from === undefined || query.to === undefined || query.from <= query.to,
    'from must not be after to',
  );

/** A cluster's chart series over a range, as the viewer may see them. */
export const GET = clusterRoute('/api/clusters/[id]/series', { query: querySchema }, ({ viewer, cluster, query }) =>
  seriesFor(viewer, cluster.member.id, cluster.member.series(query.from, query.to, query.max)),
);
