import { formatDateTime } from '@/lib/view/format-time';

/** The zone every chart's time axis is drawn in: cluster time in UTC, as `oc` prints it, whatever the viewer's zone. */
export const CHART_TIME_ZONE = 'UTC';

/**
 * The title of a time axis spanning `from`–`to` (epoch ms): zone and date once, so the ticks can show only the clock,
 * e.g. "Time (UTC): 2026-11-25 09:13:05 – 09:28:05", with the second date too when the span crosses midnight.
 */
export function timeAxisLabel(from: number, to: number): string {
  const start = formatDateTime(from).replace(` ${CHART_TIME_ZONE}`, '');
  const end = formatDateTime(to).replace(` ${CHART_TIME_ZONE}`, '');
  const sameDay = start.slice(0, 10) === end.slice(0, 10);
  return `Time (${CHART_TIME_ZONE}): ${start} – ${sameDay ? end.slice(11) : end}`;
}
