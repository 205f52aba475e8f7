/**
 * The status-write-rejection panel's charts, thresholds drawn where the detector judges by default. Kept apart from the rule
 * so the browser takes the chart without the detector.
 */
import { countChart, detectorChartSpec, type DetectorSpec } from '@/lib/charts/chart-spec';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';

const { statusStaleMinutes } = DEFAULT_HEALTH_CONFIG;

/** Chart metadata of the `status-write-rejection` detector. */
export const statusWriteRejectionChart: DetectorSpec = detectorChartSpec({
  id: 'status-write-rejection',
  failureMode: 'B',
  title: 'ClusterVersion status writes',
  kind: 'step',
  primary: 'rejectedValues',
  question: 'Capability values the installed CRD rejects, and how stale the status is',
  charts: [
    countChart('values', [['rejectedValues', 'Rejected values']]),
    {
      unit: 's',
      axisLabel: 'seconds',
      channels: [{ key: 'staleSeconds', label: 'Status staleness', unit: 's' }],
      thresholds: [
        {
          value: statusStaleMinutes * 60,
          unit: 's',
          label: `stale after ${statusStaleMinutes} min`,
          severity: 'warning',
        },
      ],
    },
  ],
});
