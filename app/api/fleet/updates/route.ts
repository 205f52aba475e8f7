import type { NextRequest } from 'next/server';
import { fleetUpdatesQuerySchema } from '@/lib/api/history-dto';
import { updatesCsv } from '@/lib/cluster/update-durations';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { fleetUpdatesFor } from '@/server/auth/update-durations-service';
import { jsonOk, parseQuery } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

async function handleGet(request: NextRequest) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const query = parseQuery(fleetUpdatesQuerySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const updates = await fleetUpdatesFor(viewer, query.data.since);
  const csv =
    query.data.format === 'csv' || (!query.data.format && /\btext\/csv\b/.test(request.headers.get('accept') ?? ''));
  if (!csv) return jsonOk(updates);
  return new Response(updatesCsv(updates.updates), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="fleet-updates.csv"',
      'Cache-Control': 'no-store',
    },
  });
}

export const GET = timedRoute('/api/fleet/updates', handleGet);
