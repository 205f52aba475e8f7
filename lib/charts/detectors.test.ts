import { describe, expect, it } from 'vitest';
import { DETECTORS } from '@/lib/health/registry';
import { DETECTOR_SPECS } from './detectors';

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

describe('DETECTOR_SPECS', () => {
  it("lists the charts in the registry's panel order, one per charted detector", () => {
    const order = DETECTORS.map((detector) => detector.id);
    const ids = DETECTOR_SPECS.map((spec) => spec.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(order.filter((id) => ids.includes(id)));
  });
});
