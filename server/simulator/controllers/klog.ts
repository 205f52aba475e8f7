/** klog severities. */
export type KlogSeverity = 'I' | 'W' | 'E' | 'F';

/**
 * One klog text line: `I1122 09:12:03.123456       1 cvo.go:656] message` (UTC, thread id 1 padded to 7).
 * Microseconds come from the virtual time plus `jitterMicros`, so lines stay deterministic.
 */
export function klogLine(
  severity: KlogSeverity,
  epochMs: number,
  source: string,
  message: string,
  jitterMicros = 0,
): string {
  const date = new Date(epochMs);
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  const micros = (date.getUTCMilliseconds() * 1000 + (jitterMicros % 1000)) % 1_000_000;
  const stamp = `${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.${pad(micros, 6)}`;
  return `${severity}${stamp} ${String(1).padStart(7, ' ')} ${source}] ${message}`;
}

/** A controller-runtime (zap, console encoder) log line as OLMv1 components print them. */
export function zapLine(
  epochMs: number,
  level: 'INFO' | 'ERROR' | 'DEBUG',
  message: string,
  fields: Record<string, unknown>,
): string {
  return `${new Date(epochMs).toISOString()}\t${level}\t${message}\t${JSON.stringify(fields)}`;
}
