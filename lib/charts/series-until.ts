import type { ClusterSeriesDto } from '@/lib/api/dto';

/**
 * The series as they stood at `at` (epoch ms, cluster time): samples and transitions up to it, `now` set to it, so
 * each chart ends on its value then. Where the kept series do not reach back to `at`, the charts are empty; `reach`
 * says from when they hold samples (null: none).
 */
export function seriesUntil(series: ClusterSeriesDto, at: number): { series: ClusterSeriesDto; reach: number | null } {
  let reach: number | null = null;
  const samples = Object.fromEntries(
    Object.entries(series.samples).map(([detector, points]) => {
      if (points.length && (reach === null || points[0].t < reach)) reach = points[0].t;
      return [detector, points.filter((point) => point.t <= at)];
    }),
  );
  const transitions = series.transitions.filter((transition) => Date.parse(transition.at) <= at);
  return { series: { ...series, now: Math.min(series.now, at), samples, transitions }, reach };
}
