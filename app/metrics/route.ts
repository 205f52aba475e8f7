import { getAuthService } from '@/server/auth/auth-service';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { jsonError } from '@/server/http/responses';
import { exposeServiceMetrics } from '@/server/observability/metrics-exposition';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

/**
 * The service's own metrics in Prometheus text format; with login on, for users allowed `get` on the URL /metrics (as
 * kube-rbac-proxy checks). Platform Prometheus scrapes the metrics listener instead (server/observability/metrics-listener.ts).
 */
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
  const { contentType, body } = await exposeServiceMetrics();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
}

export const GET = timedRoute('/metrics', handleGet);
