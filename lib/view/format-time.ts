/** "3m ago" style relative time of an RFC 3339 instant against `now` (epoch ms); the raw string if unparseable. */
export function formatSince(iso: string | null | undefined, now: number): string {
  if (!iso) return 'unknown';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${formatDuration(Math.max(0, now - t) / 1000)} ago`;
}

/** "in 12s" style time until an RFC 3339 instant ("now" once it has passed); the raw string if unparseable. */
export function formatUntil(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return t <= now ? 'now' : `in ${formatDuration((t - now) / 1000)}`;
}

/** Compact duration: 45s, 12m, 3h 5m, 2d 4h. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/** HH:MM:SS (UTC) of an epoch-ms instant, for chart axes; cluster time is shown in UTC to match `oc` output. */
export function formatClock(t: number): string {
  return new Date(t).toISOString().slice(11, 19);
}

/** Date and time (UTC) of an RFC 3339 instant or epoch ms. */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const t = typeof value === 'number' ? value : Date.parse(value);
  if (Number.isNaN(t)) return String(value);
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "as of 2026-11-22 10:22:00 UTC": how a frozen view labels state that was live when it was captured. */
export function formatAsOf(asOf: number): string {
  return `as of ${formatDateTime(asOf)}`;
}

/** A number for display: integers as-is, others with 2 decimals below 10 and 1 above; null as an em dash. */
export function formatNumber(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return Number.isInteger(v) ? String(v) : v.toFixed(Math.abs(v) < 10 ? 2 : 1);
}
