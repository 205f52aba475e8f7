import { z } from 'zod';
import { viewerRoute } from '@/server/auth/api-route';
import { MUST_GATHER_NOT_FOUND, resultFor } from '@/server/offline/must-gather-requests';

export const dynamic = 'force-dynamic';

/** `GET /api/must-gather/{id}`: a stored analysis, for its owner and administrators, while the server keeps it. */
export const GET = viewerRoute(
  '/api/must-gather/[id]',
  { params: z.object({ id: z.string().min(1) }), notFound: () => MUST_GATHER_NOT_FOUND },
  ({ viewer, params }) => resultFor(viewer, params.id),
);
