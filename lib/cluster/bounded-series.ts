/**
 * A time series with bounded memory: when it reaches `2 * capacity` points, the older half is thinned to every
 * other point, so recent data keeps full resolution and the whole history stays within a fixed budget.
 */
import type { ClusterSeriesDto, SamplePointDto, TransitionDto } from '@/lib/api/dto';

/** Points kept per series for a chart (the wire limit) and half the retained budget of {@link appendBounded}. */
export const SERIES_CAPACITY = 1_000;

/** Appends `point` to `points` (oldest first) in place and thins the older half when over budget. */
export function appendBounded(points: SamplePointDto[], point: SamplePointDto, capacity: number): void {
  points.push(point);
  if (points.length < capacity * 2) return;
  const half = Math.floor(points.length / 2);
  const thinned = points.slice(0, half).filter((_, index) => index % 2 === 0);
  points.splice(0, half, ...thinned);
}

/**
 * At most `max` points of `points` between `from` and `to` (epoch ms, inclusive), evenly strided, always keeping
 * the last point so the chart ends at the current value.
 */
export function windowed(points: readonly SamplePointDto[], max: number, from = -Infinity, to = Infinity): SamplePointDto[] {
  const inRange = points.filter((point) => point.t >= from && point.t <= to);
  if (inRange.length <= max) return inRange;
  const stride = inRange.length / max;
  const out: SamplePointDto[] = [];
  for (let index = 0; index < max - 1; index += 1) out.push(inRange[Math.floor(index * stride)]);
  out.push(inRange[inRange.length - 1]);
  return out;
}

/**
 * `GET /api/clusters/{id}/series` of one cluster: every detector's samples windowed to at most `max` points (capped
 * at {@link SERIES_CAPACITY}) and the transitions between `from` and `to` (epoch ms, cluster time, inclusive).
 */
export function seriesWindow(input: {
  clusterId: string;
  now: number;
  samples: ReadonlyMap<string, readonly SamplePointDto[]>;
  transitions: readonly TransitionDto[];
  from?: number;
  to?: number;
  max?: number;
}): ClusterSeriesDto {
  const { from, to } = input;
  const limit = Math.min(input.max ?? SERIES_CAPACITY, SERIES_CAPACITY);
  const samples: Record<string, SamplePointDto[]> = {};
  for (const [detector, points] of input.samples) samples[detector] = windowed(points, limit, from, to);
  const inRange = (at: string) => {
    const t = Date.parse(at);
    return (from === undefined || t >= from) && (to === undefined || t <= to);
  };
  return { clusterId: input.clusterId, now: input.now, samples, transitions: input.transitions.filter((entry) => inRange(entry.at)) };
}
