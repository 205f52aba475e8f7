import { describe, expect, it } from 'vitest';
import { updateProgressChart } from './chart-spec';

describe('update-progress chart', () => {
  it('keeps percent off the counts of update completion', () => {
    const units = updateProgressChart.charts.map((chart) => [chart.unit, chart.channels.map((c) => c.key)]);
    expect(units[0]).toEqual(['%', ['completionPercent']]);
  });
});
