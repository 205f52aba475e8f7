import { getAuthService } from '@/server/auth/auth-service';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { serviceMetrics } from '@/server/observability/service-metrics';
import { getFleet } from '@/server/engine/fleet';
import { jsonError } from '@/server/http/responses';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/** The service's own metrics in Prometheus text format; with login on, for users allowed `get` on the URL /metrics (as kube-rbac-proxy checks). */
async function handleGet(request: Request) {
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  if (!(await getAuthService().mayGetPath(viewer, '/metrics'))) {
    return jsonError(
      403,
      'forbidden',
      `User "${viewer.kind === 'user' ? viewer.user.name : ''}" may not get the non-resource URL /metrics`,
    );
  }
  try {
    getFleet();
  } catch {
    // a misconfigured fleet still exposes process metrics; /readyz says what is wrong
  }
  const { registry } = serviceMetrics();
  return new Response(await registry.metrics(), {
    headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' },
  });
}

export const GET = timedRoute('/metrics', handleGet);
