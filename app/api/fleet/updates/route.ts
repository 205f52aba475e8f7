import { fleetUpdatesQuerySchema } from '@/lib/api/history-dto';
import { viewerRoute } from '@/server/auth/api-route';
import { fleetUpdatesResponse } from '@/server/auth/update-durations-service';

export const dynamic = 'force-dynamic';

/** Every update the fleet has seen (or ended since `since`) with its durations, as JSON or CSV. */
export const GET = viewerRoute('/api/fleet/updates', { query: fleetUpdatesQuerySchema }, ({ viewer, query, request }) =>
  fleetUpdatesResponse(viewer, query, request.headers.get('accept')),
);
