import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';

/** The unit of a charted value: seconds, percent, or a count of things. */
export type ChartUnit = 's' | '%' | 'count';

/** One named value a detector samples, as charted. */
export interface ChannelSpec {
  key: string;
  label: string;
  unit: ChartUnit;
}

/** A reference line where a detector judges (its configured threshold), in the unit of the chart it is drawn on. */
export interface ThresholdSpec {
  value: number;
  unit: ChartUnit;
  label: string;
  severity: 'warning' | 'critical';
}

/**
 * One chart of a detector's panel: one y-axis with one unit. Values of another unit go on another chart of the
 * panel (small multiples), never on a shared scale where a count of 4 would lie flat against 1,200 seconds.
 */
export interface ChartSpec {
  unit: ChartUnit;
  /** The y-axis title: what is counted ("versions", "replicas"), or the unit's word for seconds and percent. */
  axisLabel: string;
  channels: readonly ChannelSpec[];
  thresholds?: readonly ThresholdSpec[];
  /** A fixed y-range the axis always spans, e.g. 0–100 for percent. */
  domain?: readonly [number, number];
}

/** Chart metadata of a detector: panel title, its charts (one unit each) and the channel a sparkline shows. */
export interface DetectorSpec {
  id: string;
  /** The failure mode (A–E of the product's five) the detector catches; none for context detectors. */
  failureMode?: 'A' | 'B' | 'C' | 'D' | 'E';
  title: string;
  /** One line under the panel title: what the chart answers. */
  question: string;
  charts: readonly ChartSpec[];
  /** Every channel of every chart, in chart order. */
  channels: readonly ChannelSpec[];
  primary: string;
  kind: 'line' | 'step';
}

const spec = (d: Omit<DetectorSpec, 'channels'>): DetectorSpec => ({
  ...d,
  channels: d.charts.flatMap((c) => c.channels),
});
const count = (axisLabel: string, channels: readonly [key: string, label: string][]): ChartSpec => ({
  unit: 'count',
  axisLabel,
  channels: channels.map(([key, label]) => ({ key, label, unit: 'count' })),
});
const { latencyWarningSeconds, latencyCriticalSeconds, statusStaleMinutes } = DEFAULT_HEALTH_CONFIG;

/** Every detector the dashboard charts, in panel order. Thresholds come from the detectors' configuration. */
export const DETECTOR_SPECS: readonly DetectorSpec[] = [
  spec({
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
      count('operators', [
        ['updatedOperators', 'Updated operators'],
        ['unavailableOperators', 'Unavailable operators'],
        ['degradedOperators', 'Degraded operators'],
      ]),
      count('nodes', [['updatedNodes', 'Updated nodes']]),
    ],
  }),
  spec({
    id: 'featuregate-coverage',
    failureMode: 'A',
    title: 'FeatureGate version coverage',
    kind: 'step',
    primary: 'missing',
    question: 'Release versions required by running components vs listed in the FeatureGate status',
    charts: [
      count('versions', [
        ['required', 'Required versions'],
        ['present', 'Present versions'],
        ['missing', 'Missing versions'],
      ]),
    ],
  }),
  spec({
    id: 'status-write-rejection',
    failureMode: 'B',
    title: 'ClusterVersion status writes',
    kind: 'step',
    primary: 'rejectedValues',
    question: 'Capability values the installed CRD rejects, and how stale the status is',
    charts: [
      count('values', [['rejectedValues', 'Rejected values']]),
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
  }),
  spec({
    id: 'catalog-replicas',
    failureMode: 'C',
    title: 'Catalog replicas',
    kind: 'step',
    primary: 'ready',
    question: 'OLMv1 catalog Deployments: desired vs ready vs available, and PDB disruptions allowed',
    // Replicas and the disruptions a PDB allows are both counts of pods: one axis.
    charts: [
      count('pods', [
        ['desired', 'Desired'],
        ['ready', 'Ready'],
        ['available', 'Available'],
        ['pdbDisruptionsAllowed', 'PDB disruptions allowed'],
        ['operatorControllerReady', 'operator-controller ready'],
      ]),
    ],
  }),
  spec({
    id: 'pod-setup-latency',
    failureMode: 'D',
    title: 'Pod-setup latency',
    kind: 'line',
    primary: 'p99',
    question: 'OVN-Kubernetes pod creation latency percentiles (seconds)',
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
  }),
  spec({
    id: 'install-settling',
    failureMode: 'E',
    title: 'Install settling',
    kind: 'step',
    primary: 'statusChangesLastMinute',
    question: 'Failure streak length and reconcile cadence of extensions and operators',
    charts: [
      count('failed attempts', [['streakLength', 'Failure streak']]),
      count('status changes per minute', [['statusChangesLastMinute', 'Status changes / min']]),
    ],
  }),
];

/** The spec of a detector id, if the dashboard knows it. */
export function detectorSpec(id: string): DetectorSpec | undefined {
  return DETECTOR_SPECS.find((d) => d.id === id);
}

/** The failure-mode letter (A–E) of a detector, if it is one of the five. */
export function failureModeOf(detector: string): DetectorSpec['failureMode'] {
  return DETECTOR_SPECS.find((spec) => spec.id === detector)?.failureMode;
}

/** Words for a channel unit in labels ("seconds", "percent", "count"). */
export function unitWord(unit: ChartUnit): string {
  return unit === 's' ? 'seconds' : unit === '%' ? 'percent' : 'count';
}

/** A value with its unit for display ("0.42 s", "37 %", "4"), given an already formatted number. */
export function withUnit(formatted: string, unit: ChartUnit): string {
  return unit === 's' ? `${formatted} s` : unit === '%' ? `${formatted} %` : formatted;
}
