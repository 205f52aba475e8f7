import type { ClusterSeriesDto } from '@/lib/api/dto';
import { DETECTOR_SPECS, unitWord } from './detectors';
import { toSparkline } from './to-detector-series';

/** The one series a fleet row shows as its sparkline. */
export interface FleetSparkline {
  detector: string;
  key: string;
  /** What it plots, for screen readers and the tooltip, e.g. "Pod-setup latency · p99, in seconds". */
  label: string;
  /** Short caption under the line, e.g. "p99 (s)". */
  caption: string;
  points: { t: number; v: number }[];
}

/**
 * Chooses the most telling series of a cluster for the fleet sparkline: the first detector (in `preferred` order,
 * default: the one with the worst finding first, then panel order) whose primary channel moved; if nothing moved,
 * the first with any data. Null when the cluster has no samples at all.
 */
export function pickSparkline(series: ClusterSeriesDto | undefined, preferred: readonly string[] = [], max = 60): FleetSparkline | null {
  if (!series) return null;
  const order = [...new Set([...preferred, ...DETECTOR_SPECS.map((d) => d.id)])];
  const candidates = order.flatMap((id) => {
    const spec = DETECTOR_SPECS.find((d) => d.id === id);
    if (!spec) return [];
    const points = toSparkline(series.samples[id], spec.primary, max);
    const channel = spec.channels.find((c) => c.key === spec.primary);
    const name = channel?.label ?? spec.primary;
    const label = `${spec.title} · ${name}, in ${unitWord(channel?.unit)}, over the last ${points.length} samples`;
    const caption = `${name}${channel?.unit && channel.unit !== 'count' ? ` (${channel.unit})` : ''}`;
    return points.length ? [{ detector: id, key: spec.primary, label, caption, points }] : [];
  });
  const moving = candidates.find((c) => c.points.some((p) => p.v !== c.points[0].v));
  return moving ?? candidates[0] ?? null;
}
