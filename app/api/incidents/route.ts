import { createIncidentSchema, type CreateIncidentDto } from '@/lib/api/incident-dto';
import { clusterRoute } from '@/server/auth/api-route';
import { viewerName } from '@/server/auth/identity';
import { createIncident } from '@/server/incidents/incident-service';
import { incidentLimitResponse } from '@/server/incidents/incident-limit-response';
import { getIncidentRepository } from '@/server/incidents/incident-store';

export const dynamic = 'force-dynamic';

/**
 * `{clusterId, from, to, title, note}` stays under this even with the longest title and note escaped in JSON;
 * anything larger is not a request to create an incident.
 */
const MAX_BODY_BYTES = 16 * 1024;

/**
 * Freezes a cluster the viewer may see into an incident created by them; each reader later sees what their own
 * access allows (incidentFor).
 */
export const POST = clusterRoute(
  '/api/incidents',
  {
    body: createIncidentSchema,
    maxBodyBytes: MAX_BODY_BYTES,
    cluster: ({ body }: { body: CreateIncidentDto }) => body.clusterId,
    failures: incidentLimitResponse,
    status: 201,
  },
  ({ viewer, cluster, body: { from, to, title, note } }) =>
    createIncident(cluster.member, getIncidentRepository(), { from, to, title, note, createdBy: viewerName(viewer) }),
);
