import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import { podSetupLatencyChart } from './chart-spec';

describe('pod-setup-latency chart', () => {
  it('draws its thresholds where the detector judges, from its configuration', () => {
    const values = podSetupLatencyChart.charts.flatMap((chart) =>
      (chart.thresholds ?? []).map((t) => [t.severity, t.value]),
    );
    expect(values).toEqual([
      ['warning', DEFAULT_HEALTH_CONFIG.latencyWarningSeconds],
      ['critical', DEFAULT_HEALTH_CONFIG.latencyCriticalSeconds],
    ]);
  });
});
