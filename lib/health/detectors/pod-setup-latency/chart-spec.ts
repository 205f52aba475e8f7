/**
 * The pod-setup-latency panel's charts, thresholds drawn where the detector judges by default. Kept apart from the rule
 * so the browser takes the chart without the detector.
 */
import { detectorChartSpec, type DetectorSpec } from '@/lib/charts/chart-spec';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';

const { latencyWarningSeconds, latencyCriticalSeconds } = DEFAULT_HEALTH_CONFIG;

/** The qualifier of the finding the detector raises when no source reports pod-setup latency. */
export const NO_METRICS_SOURCE = 'no-metrics-source';

/** Chart metadata of the `pod-setup-latency` detector. */
export const podSetupLatencyChart: DetectorSpec = detectorChartSpec({
  id: 'pod-setup-latency',
  failureMode: 'D',
  title: 'Pod-setup latency',
  kind: 'line',
  primary: 'p99',
  question: 'OVN-Kubernetes pod creation latency percentiles (seconds)',
  emptyBecause: NO_METRICS_SOURCE,
  charts: [
    {
      unit: 's',
      axisLabel: 'seconds',
      channels: [
        { key: 'p50', label: 'p50', unit: 's' },
        { key: 'p95', label: 'p95', unit: 's' },
        { key: 'p99', label: 'p99', unit: 's' },
      ],
      thresholds: [
        { value: latencyWarningSeconds, unit: 's', label: `warning ${latencyWarningSeconds} s`, severity: 'warning' },
        {
          value: latencyCriticalSeconds,
          unit: 's',
          label: `critical ${latencyCriticalSeconds} s`,
          severity: 'critical',
        },
      ],
    },
  ],
});
