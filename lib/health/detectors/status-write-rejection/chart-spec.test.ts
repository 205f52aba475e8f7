import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import { statusWriteRejectionChart } from './chart-spec';

describe('status-write-rejection chart', () => {
  it('draws its threshold where the detector judges, from its configuration', () => {
    const values = statusWriteRejectionChart.charts.flatMap((chart) =>
      (chart.thresholds ?? []).map((t) => [t.severity, t.value]),
    );
    expect(values).toEqual([['warning', DEFAULT_HEALTH_CONFIG.statusStaleMinutes * 60]]);
  });
  it('keeps counts off the seconds axis of status writes', () => {
    const units = statusWriteRejectionChart.charts.map((chart) => [chart.unit, chart.channels.map((c) => c.key)]);
    expect(units).toEqual([
      ['count', ['rejectedValues']],
      ['s', ['staleSeconds']],
    ]);
  });
});
