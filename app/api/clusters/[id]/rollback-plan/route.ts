import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { planRollback } from '@/lib/rollback/plan-rollback';
import { getFleet } from '@/server/engine/fleet';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  to: z.string().trim().min(1, 'to must name a release version').max(100),
  acceptCrossMinorRisk: z.enum(['0', '1', 'true', 'false']).optional(),
});

export async function GET(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const query = parseQuery(querySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const engine = getFleet().get(id);
  if (!engine) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  const accept = query.data.acceptCrossMinorRisk === '1' || query.data.acceptCrossMinorRisk === 'true';
  const plan = planRollback(engine.snapshot(), engine.health(), { target: query.data.to, now: engine.now(), acceptCrossMinorRisk: accept });
  if (!plan) return jsonError(400, 'bad_request', `to: "${query.data.to}" is not a release version (x.y.z)`);
  return jsonOk(plan);
}
