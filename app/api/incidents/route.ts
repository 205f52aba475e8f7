import type { NextRequest } from 'next/server';
import { createIncidentSchema } from '@/lib/api/incident-dto';
import { healthFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { createIncident } from '@/server/incidents/incident-service';
import { incidentLimitResponse } from '@/server/incidents/incident-limit-response';
import { getIncidentRepository } from '@/server/incidents/incident-store';
import { parseJsonBody } from '@/server/http/bounded-body';
import { jsonError, jsonOk } from '@/server/http/responses';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/**
 * `{clusterId, from, to, title, note}` stays under this even with the longest title and note escaped in JSON;
 * anything larger is not a request to create an incident.
 */
const MAX_BODY_BYTES = 16 * 1024;

async function handlePost(request: NextRequest) {
  const refused = rejectCrossSite(request);
  if (refused) return refused;
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const parsed = await parseJsonBody(request, createIncidentSchema, MAX_BODY_BYTES);
  if (!parsed.ok) return parsed.response;
  const { clusterId, from, to, title, note } = parsed.data;
  const engine = getFleet().get(clusterId);
  if (!engine || !(await healthFor(viewer, engine)))
    return jsonError(404, 'not_found', `no cluster named "${clusterId}"`);
  // The incident freezes everything; each reader later sees what their own access allows (incidentFor).
  const createdBy = viewer.kind === 'user' ? viewer.user.name : null;
  try {
    return jsonOk(await createIncident(engine, getIncidentRepository(), { from, to, createdBy, title, note }), 201);
  } catch (error) {
    const limited = incidentLimitResponse(error);
    if (limited) return limited;
    throw error;
  }
}

export const POST = timedRoute('/api/incidents', handlePost);
