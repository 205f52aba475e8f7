import 'server-only';
import { getFleet } from '@/server/engine/fleet';
import { serviceMetrics } from './service-metrics';

/** The service's metrics in the Prometheus text format, as /metrics serves them on either listener. */
export async function exposeServiceMetrics(): Promise<{ contentType: string; body: string }> {
  try {
    getFleet();
  } catch {
    // a misconfigured fleet still exposes process metrics; /readyz says what is wrong
  }
  const { registry } = serviceMetrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
