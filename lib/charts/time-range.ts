/** Time ranges the cluster view offers (`?range=`). `all` = everything retained. */
export const TIME_RANGES = ['15m', '1h', '6h', 'all'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];

/** Default range when the URL has none or an unknown value. */
export const DEFAULT_RANGE: TimeRange = '1h';

const RANGE_MS: Record<Exclude<TimeRange, 'all'>, number> = {
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '6h': 6 * 60 * 60_000,
};

/** Parses a `?range=` value; anything unknown falls back to `fallback` ({@link DEFAULT_RANGE} unless given). */
export function parseTimeRange(value: string | null | undefined, fallback: TimeRange = DEFAULT_RANGE): TimeRange {
  return (TIME_RANGES as readonly string[]).includes(value ?? '') ? (value as TimeRange) : fallback;
}

/** First instant (epoch ms) inside `range` ending at `now` (cluster time, not the browser's clock). */
export function rangeStart(now: number, range: TimeRange): number {
  return range === 'all' ? -Infinity : now - RANGE_MS[range];
}
