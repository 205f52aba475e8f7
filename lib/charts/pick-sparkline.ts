import type { ClusterSeriesDto } from '@/lib/api/dto';
import { DETECTOR_SPECS } from './detectors';
import { toSparkline } from './to-detector-series';

/** The one series a fleet row shows as its sparkline. */
export interface FleetSparkline {
  detector: string;
  key: string;
  /** Human label, e.g. "Pod-setup latency p99". */
  label: string;
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
    const label = `${spec.title} · ${spec.channels.find((c) => c.key === spec.primary)?.label ?? spec.primary}`;
    return points.length ? [{ detector: id, key: spec.primary, label, points }] : [];
  });
  const moving = candidates.find((c) => c.points.some((p) => p.v !== c.points[0].v));
  return moving ?? candidates[0] ?? null;
}
