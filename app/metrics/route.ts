import { serviceMetrics } from '@/server/observability/service-metrics';
import { getFleet } from '@/server/engine/fleet';

export const dynamic = 'force-dynamic';

/** The service's own metrics in Prometheus text format. */
export async function GET() {
  try {
    getFleet();
  } catch {
    // a misconfigured fleet still exposes process metrics; /readyz says what is wrong
  }
  const { registry } = serviceMetrics();
  return new Response(await registry.metrics(), { headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' } });
}
