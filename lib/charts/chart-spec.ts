/**
 * What a detector's panel charts: its charts (one unit each), channels, thresholds and sparkline channel. Each
 * detector declares its own beside its rule (lib/health/detectors/<id>/chart-spec.ts); lib/charts/detectors.ts
 * lists them in panel order.
 */

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
  /**
   * Why the panel may have no samples, when the detector can know it: the qualifier (see `findingId`) of the finding
   * that says so. While the detector publishes it, the panel says that finding's own words; otherwise all that is
   * known is that no sample came yet.
   */
  emptyBecause?: string;
}

/** A detector's chart metadata, its channels gathered from its charts in chart order. */
export const detectorChartSpec = (d: Omit<DetectorSpec, 'channels'>): DetectorSpec => ({
  ...d,
  channels: d.charts.flatMap((c) => c.channels),
});
/** A chart of counts: one `count` axis titled `axisLabel`, one channel per `[key, label]`. */
export const countChart = (axisLabel: string, channels: readonly [key: string, label: string][]): ChartSpec => ({
  unit: 'count',
  axisLabel,
  channels: channels.map(([key, label]) => ({ key, label, unit: 'count' })),
});
/** Words for a channel unit in labels ("seconds", "percent", "count"). */
export function unitWord(unit: ChartUnit): string {
  return unit === 's' ? 'seconds' : unit === '%' ? 'percent' : 'count';
}

/** A value with its unit for display ("0.42 s", "37 %", "4"), given an already formatted number. */
export function withUnit(formatted: string, unit: ChartUnit): string {
  return unit === 's' ? `${formatted} s` : unit === '%' ? `${formatted} %` : formatted;
}
