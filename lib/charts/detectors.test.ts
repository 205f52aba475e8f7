import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import { DETECTOR_SPECS, detectorSpec } from './detectors';

describe.each(DETECTOR_SPECS.map((spec) => [spec.id, spec] as const))('chart spec of %s', (_id, spec) => {
  it("puts one unit on each axis: every channel and threshold of a chart has the chart's unit", () => {
    for (const chart of spec.charts) {
      expect(chart.channels.length).toBeGreaterThan(0);
      expect(new Set(chart.channels.map((c) => c.unit))).toEqual(new Set([chart.unit]));
      for (const threshold of chart.thresholds ?? []) expect(threshold.unit).toBe(chart.unit);
      expect(chart.axisLabel.trim()).not.toBe('');
    }
  });
  it('charts each channel once, the primary among them', () => {
    const keys = spec.charts.flatMap((chart) => chart.channels.map((c) => c.key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(spec.channels.map((c) => c.key)).toEqual(keys);
    expect(keys).toContain(spec.primary);
  });
});

describe('thresholds', () => {
  it('are drawn where the detectors judge, from their configuration', () => {
    const values = (id: string) =>
      detectorSpec(id)!.charts.flatMap((chart) => (chart.thresholds ?? []).map((t) => [t.severity, t.value]));
    expect(values('pod-setup-latency')).toEqual([
      ['warning', DEFAULT_HEALTH_CONFIG.latencyWarningSeconds],
      ['critical', DEFAULT_HEALTH_CONFIG.latencyCriticalSeconds],
    ]);
    expect(values('status-write-rejection')).toEqual([['warning', DEFAULT_HEALTH_CONFIG.statusStaleMinutes * 60]]);
  });
  it('keep counts off the seconds axis of status writes and percent off the counts of update completion', () => {
    const units = (id: string) =>
      detectorSpec(id)!.charts.map((chart) => [chart.unit, chart.channels.map((c) => c.key)]);
    expect(units('status-write-rejection')).toEqual([
      ['count', ['rejectedValues']],
      ['s', ['staleSeconds']],
    ]);
    expect(units('update-progress')[0]).toEqual(['%', ['completionPercent']]);
  });
});
