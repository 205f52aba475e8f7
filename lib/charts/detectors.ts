/** One named value a detector samples, as charted. */
export interface ChannelSpec {
  key: string;
  label: string;
  unit?: 's' | '%' | 'count';
}

/** Chart metadata of a detector: panel title, the sample channels it charts and the one a sparkline shows. */
export interface DetectorSpec {
  id: string;
  /** The failure mode (A–E of the product's five) the detector catches; none for context detectors. */
  failureMode?: 'A' | 'B' | 'C' | 'D' | 'E';
  title: string;
  /** One line under the panel title: what the chart answers. */
  question: string;
  channels: readonly ChannelSpec[];
  primary: string;
  /** Reference lines (e.g. thresholds) in the unit of the channels. */
  thresholds?: readonly { value: number; label: string; severity: 'warning' | 'critical' }[];
  kind: 'line' | 'step';
}

/** Every detector the dashboard charts, in panel order. */
export const DETECTOR_SPECS: readonly DetectorSpec[] = [
  {
    id: 'update-progress', title: 'Update completion', kind: 'line', primary: 'completionPercent',
    question: 'ClusterOperators at the target version, and operator health',
    channels: [
      { key: 'completionPercent', label: 'Completion', unit: '%' },
      { key: 'updatedOperators', label: 'Updated operators', unit: 'count' },
      { key: 'unavailableOperators', label: 'Unavailable operators', unit: 'count' },
      { key: 'degradedOperators', label: 'Degraded operators', unit: 'count' },
      { key: 'updatedNodes', label: 'Updated nodes', unit: 'count' },
    ],
  },
  {
    id: 'featuregate-coverage', failureMode: 'A', title: 'FeatureGate version coverage', kind: 'step', primary: 'missing',
    question: 'Release versions required by running components vs listed in the FeatureGate status',
    channels: [
      { key: 'required', label: 'Required versions', unit: 'count' },
      { key: 'present', label: 'Present versions', unit: 'count' },
      { key: 'missing', label: 'Missing versions', unit: 'count' },
    ],
  },
  {
    id: 'status-write-rejection', failureMode: 'B', title: 'ClusterVersion status writes', kind: 'step', primary: 'rejectedValues',
    question: 'Capability values the installed CRD rejects, and how stale the status is',
    channels: [
      { key: 'rejectedValues', label: 'Rejected values', unit: 'count' },
      { key: 'staleSeconds', label: 'Status staleness', unit: 's' },
    ],
  },
  {
    id: 'catalog-replicas', failureMode: 'C', title: 'Catalog replicas', kind: 'step', primary: 'ready',
    question: 'OLMv1 catalog Deployments: desired vs ready vs available, and PDB disruptions allowed',
    channels: [
      { key: 'desired', label: 'Desired', unit: 'count' },
      { key: 'ready', label: 'Ready', unit: 'count' },
      { key: 'available', label: 'Available', unit: 'count' },
      { key: 'pdbDisruptionsAllowed', label: 'PDB disruptions allowed', unit: 'count' },
      { key: 'operatorControllerReady', label: 'operator-controller ready', unit: 'count' },
    ],
  },
  {
    id: 'pod-setup-latency', failureMode: 'D', title: 'Pod-setup latency', kind: 'line', primary: 'p99',
    question: 'OVN-Kubernetes pod creation latency percentiles (seconds)',
    channels: [
      { key: 'p50', label: 'p50', unit: 's' },
      { key: 'p95', label: 'p95', unit: 's' },
      { key: 'p99', label: 'p99', unit: 's' },
    ],
    thresholds: [
      { value: 0.5, label: 'warning 0.5 s', severity: 'warning' },
      { value: 3, label: 'critical 3 s', severity: 'critical' },
    ],
  },
  {
    id: 'install-settling', failureMode: 'E', title: 'Install settling', kind: 'step', primary: 'statusChangesLastMinute',
    question: 'Failure streak length and reconcile cadence of extensions and operators',
    channels: [
      { key: 'streakLength', label: 'Failure streak', unit: 'count' },
      { key: 'statusChangesLastMinute', label: 'Status changes / min', unit: 'count' },
    ],
  },
];

/** The spec of a detector id, if the dashboard knows it. */
export function detectorSpec(id: string): DetectorSpec | undefined {
  return DETECTOR_SPECS.find((d) => d.id === id);
}

/** The failure-mode letter (A–E) of a detector, if it is one of the five. */
export function failureModeOf(detector: string): DetectorSpec['failureMode'] {
  return DETECTOR_SPECS.find((spec) => spec.id === detector)?.failureMode;
}

/** Words for a channel unit in labels ("seconds", "%", "count"). */
export function unitWord(unit: ChannelSpec['unit']): string {
  return unit === 's' ? 'seconds' : unit === '%' ? 'percent' : 'count';
}
