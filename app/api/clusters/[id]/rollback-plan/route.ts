import type { NextRequest } from 'next/server';
import { z } from 'zod';
import { planRollback } from '@/lib/rollback/plan-rollback';
import { healthFor } from '@/server/auth/visibility';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { getFleet } from '@/server/engine/fleet';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  to: z.string().trim().min(1, 'to must name a release version').max(100),
  acceptCrossMinorRisk: z.enum(['0', '1', 'true', 'false']).optional(),
});

async function handleGet(request: NextRequest, { params }: { params: Promise<{ id: string }> }) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const { id } = await params;
  const query = parseQuery(querySchema, request.nextUrl.searchParams);
  if (!query.ok) return query.response;
  const engine = getFleet().get(id);
  const health = engine && (await healthFor(viewer, engine));
  if (!engine || !health) return jsonError(404, 'not_found', `no cluster named "${id}"`);
  const lacking = health.access?.hiddenViews?.rollbackPlan;
  if (lacking) {
    const message = `a rollback plan needs read access to everything it checks; missing: ${lacking.join(', ')}`;
    return jsonError(403, 'forbidden', message);
  }
  const accept = query.data.acceptCrossMinorRisk === '1' || query.data.acceptCrossMinorRisk === 'true';
  const plan = planRollback(engine.snapshot(), health, {
    target: query.data.to,
    now: engine.now(),
    acceptCrossMinorRisk: accept,
  });
  if (!plan) return jsonError(400, 'bad_request', `to: "${query.data.to}" is not a release version (x.y.z)`);
  return jsonOk(plan);
}

export const GET = timedRoute('/api/clusters/[id]/rollback-plan', handleGet);
