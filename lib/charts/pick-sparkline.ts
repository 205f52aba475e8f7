import type { ClusterSeriesDto, ClusterSummaryDto } from '@/lib/api/dto';
import { unitWord, type ChartSpec, type DetectorSpec } from './chart-spec';
import { DETECTOR_SPECS, detectorSpec } from './detectors';
import { rangeStart, type TimeRange } from './time-range';
import { toSparkline } from './to-detector-series';

/** The time window every fleet sparkline spans, ending at the cluster's latest sample (cluster time). */
export const SPARKLINE_RANGE: TimeRange = '1h';
const WINDOW_LABEL = 'last 1 h';

/** Detectors a row without a finding or an update shows, in order: the first with samples in the window. */
const QUIET_ORDER: readonly string[] = ['pod-setup-latency', ...DETECTOR_SPECS.map((d) => d.id)];

/** The one series a fleet row shows as its sparkline. */
export interface FleetSparkline {
  detector: string;
  key: string;
  /** What it plots, for screen readers and the tooltip, e.g. "Pod-setup latency · p99, in seconds, last 1 h". */
  label: string;
  /** Short caption under the line, e.g. "p99 (s), last 1 h". */
  caption: string;
  points: { t: number; v: number }[];
  /** The fixed time window drawn (epoch ms, cluster time), whatever part of it has samples. */
  window: { from: number; to: number; label: string };
  /**
   * The y-range drawn: from 0 to at least the unit's baseline (100 for percent, the detector's warning threshold
   * for seconds, 1 for counts), so noise on a healthy cluster stays a flat line near the floor.
   */
  domain: [number, number];
}

/** Why a row shows the series it does: its worst finding, an update in progress, or neither. */
export type SparklineRow = Pick<ClusterSummaryDto, 'updating' | 'worstFinding'>;

function chartOf(spec: DetectorSpec, key: string): ChartSpec | undefined {
  return spec.charts.find((chart) => chart.channels.some((c) => c.key === key));
}

/** The y-range floor of a chart: percent spans 0–100, seconds reach the warning threshold, counts at least 1. */
function baseline(chart: ChartSpec | undefined): number {
  if (!chart) return 1;
  if (chart.domain) return chart.domain[1];
  const warning = chart.thresholds?.find((t) => t.severity === 'warning')?.value;
  return warning ?? 1;
}

/**
 * Chooses and shapes the fleet sparkline of a cluster. The choice depends only on the row, never on how the
 * samples move or arrive, so it is the same on every load: the primary signal of the worst finding's detector when
 * it warns or is critical (an update stalled by a FeatureGate shows the FeatureGate), else the update's completion
 * while updating, else the first of pod-setup latency and the panel order with samples. If the chosen detector has
 * no samples in the window, that order applies. Null without samples.
 */
export function pickSparkline(
  row: SparklineRow,
  series: ClusterSeriesDto | undefined,
  max = 60,
): FleetSparkline | null {
  if (!series) return null;
  const to = series.now;
  const from = rangeStart(to, SPARKLINE_RANGE);
  const problem = row.worstFinding && row.worstFinding.severity !== 'info' ? row.worstFinding.detector : undefined;
  const chosen = problem ?? (row.updating ? 'update-progress' : row.worstFinding?.detector);
  const order = [...new Set([...(chosen ? [chosen] : []), ...QUIET_ORDER])];
  for (const id of order) {
    const spec = detectorSpec(id);
    if (!spec) continue;
    const points = toSparkline(series.samples[id], spec.primary, { from, to, max });
    if (points.length === 0) continue;
    const channel = spec.channels.find((c) => c.key === spec.primary);
    const unit = channel?.unit ?? 'count';
    const name = channel?.label ?? spec.primary;
    const top = Math.max(baseline(chartOf(spec, spec.primary)), ...points.map((p) => p.v));
    return {
      detector: id,
      key: spec.primary,
      label: `${spec.title} · ${name}, in ${unitWord(unit)}, ${WINDOW_LABEL}`,
      caption: `${name}${unit === 'count' ? '' : ` (${unit})`}, ${WINDOW_LABEL}`,
      points,
      window: { from, to, label: WINDOW_LABEL },
      domain: [Math.min(0, ...points.map((p) => p.v)), top],
    };
  }
  return null;
}
