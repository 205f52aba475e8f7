/**
 * The charts of every detector the dashboard charts, in panel order. Each spec lives beside its detector; thresholds
 * come from the detectors' configuration there.
 */
import type { DetectorSpec } from '@/lib/charts/chart-spec';
import { updateProgressChart } from '@/lib/health/detectors/update-progress/chart-spec';
import { featureGateCoverageChart } from '@/lib/health/detectors/featuregate-coverage/chart-spec';
import { statusWriteRejectionChart } from '@/lib/health/detectors/status-write-rejection/chart-spec';
import { catalogReplicasChart } from '@/lib/health/detectors/catalog-replicas/chart-spec';
import { podSetupLatencyChart } from '@/lib/health/detectors/pod-setup-latency/chart-spec';
import { installSettlingChart } from '@/lib/health/detectors/install-settling/chart-spec';

/** Every detector the dashboard charts, in panel order. */
export const DETECTOR_SPECS: readonly DetectorSpec[] = [
  updateProgressChart,
  featureGateCoverageChart,
  statusWriteRejectionChart,
  catalogReplicasChart,
  podSetupLatencyChart,
  installSettlingChart,
];

/** The spec of a detector id, if the dashboard knows it. */
export function detectorSpec(id: string): DetectorSpec | undefined {
  return DETECTOR_SPECS.find((d) => d.id === id);
}

/** The failure-mode letter (A–E) of a detector, if it is one of the five. */
export function failureModeOf(detector: string): DetectorSpec['failureMode'] {
  return DETECTOR_SPECS.find((spec) => spec.id === detector)?.failureMode;
}
