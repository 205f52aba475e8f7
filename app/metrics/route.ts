import { viewerRoute } from '@/server/auth/api-route';
import { pathRefusal } from '@/server/auth/visibility';
import { serviceMetricsResponse } from '@/server/engine/metrics-exposition';

export const dynamic = 'force-dynamic';

/**
 * The service's own metrics in Prometheus text format; with login on, for users allowed `get` on the URL /metrics
 * (as kube-rbac-proxy checks). Platform Prometheus scrapes the metrics listener instead (server/auth/metrics-listener.ts).
 */
export const GET = viewerRoute('/metrics', { refuse: ({ viewer }) => pathRefusal(viewer, '/metrics') }, () =>
  serviceMetricsResponse(),
);
