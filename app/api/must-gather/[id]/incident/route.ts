import { z } from 'zod';
import { viewerRoute } from '@/server/auth/api-route';
import { incidentLimitResponse } from '@/server/incidents/incident-limit-response';
import { MUST_GATHER_NOT_FOUND, mustGatherIncidentFor } from '@/server/offline/must-gather-requests';

export const dynamic = 'force-dynamic';

/** `POST /api/must-gather/{id}/incident`: freezes an analysis the viewer may read into a durable incident. */
export const POST = viewerRoute(
  '/api/must-gather/[id]/incident',
  {
    params: z.object({ id: z.string().min(1) }),
    notFound: () => MUST_GATHER_NOT_FOUND,
    failures: incidentLimitResponse,
    status: 201,
  },
  ({ viewer, params }) => mustGatherIncidentFor(viewer, params.id),
);
