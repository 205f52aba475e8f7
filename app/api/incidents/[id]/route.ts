import { z } from 'zod';
import { viewerRoute } from '@/server/auth/api-route';
import { incidentFor } from '@/server/auth/visibility';
import { isIncidentId } from '@/server/incidents/incident-id';
import { getIncidentRepository } from '@/server/incidents/incident-store';

export const dynamic = 'force-dynamic';

const paramsSchema = z.object({ id: z.string().refine(isIncidentId) });

/** An incident as the viewer may read it; one they may not read answers like one that does not exist. */
export const GET = viewerRoute(
  '/api/incidents/[id]',
  { params: paramsSchema, notFound: () => 'no such incident' },
  async ({ viewer, params }) => incidentFor(viewer, await getIncidentRepository().get(params.id)),
);
