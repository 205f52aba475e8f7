/** The update-progress panel's charts. Kept apart from the rule so the browser takes the chart without the detector. */
import { countChart, detectorChartSpec, type DetectorSpec } from '@/lib/charts/chart-spec';

/** Chart metadata of the `update-progress` detector. */
export const updateProgressChart: DetectorSpec = detectorChartSpec({
  id: 'update-progress',
  title: 'Update completion',
  kind: 'line',
  primary: 'completionPercent',
  question: 'ClusterOperators at the target version, and operator health',
  charts: [
    {
      unit: '%',
      axisLabel: 'percent',
      domain: [0, 100],
      channels: [{ key: 'completionPercent', label: 'Completion', unit: '%' }],
    },
    countChart('operators', [
      ['updatedOperators', 'Updated operators'],
      ['unavailableOperators', 'Unavailable operators'],
      ['degradedOperators', 'Degraded operators'],
    ]),
    countChart('nodes', [['updatedNodes', 'Updated nodes']]),
  ],
});
