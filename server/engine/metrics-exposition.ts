import 'server-only';
import { serviceMetrics } from '@/server/observability/service-metrics';
import { getFleet } from './fleet';

/** The service's own metrics in Prometheus text format, the fleet's figures included once it could start. */
export async function serviceMetricsResponse(): Promise<Response> {
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
