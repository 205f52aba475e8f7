/** RFC 3339 with second precision, as metav1.Time serialises. */
export function iso(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** RFC 3339 with microseconds, as metav1.MicroTime serialises (Lease renewTime). */
export function isoMicro(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** Virtual-time constants used by every scenario. */
export const SECOND = 1000;
/** One virtual minute in milliseconds. */
export const MINUTE = 60 * SECOND;
/** One virtual hour in milliseconds. */
export const HOUR = 60 * MINUTE;
