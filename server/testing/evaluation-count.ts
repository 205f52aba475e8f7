import { serviceMetrics } from '@/server/observability/service-metrics';

/** Evaluations run in this process so far (the service's own evaluation histogram): tests count what a change cost. */
export async function evaluationsSoFar(): Promise<number> {
  const { values } = await serviceMetrics().evaluationSeconds.get();
  return values.find((value) => value.metricName === 'update_health_detector_evaluation_seconds_count')?.value ?? 0;
}
