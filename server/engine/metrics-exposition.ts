import 'server-only';
import { serviceMetrics } from '@/server/observability/service-metrics';
import { getFleet } from './fleet';

/** The service's metrics in the Prometheus text format, as /metrics serves them on either listener. */
export async function exposeServiceMetrics(): Promise<{ contentType: string; body: string }> {
  try {
    getFleet();
  } catch {
    // a misconfigured fleet still exposes process metrics; /readyz says what is wrong
  }
  const metrics = serviceMetrics();
  return { contentType: metrics.registry.contentType, body: await metrics.exposition() };
}

/** The service's own metrics as the /metrics route answers them, the fleet's figures included once it could start. */
export async function serviceMetricsResponse(): Promise<Response> {
  const { contentType, body } = await exposeServiceMetrics();
  return new Response(body, { headers: { 'Content-Type': contentType, 'Cache-Control': 'no-store' } });
}
