/**
 * The one order of severities, worst first, and what derives from it: rank, comparison, the worst of a set.
 * Detector output and served DTOs share the same four values, so both sort and summarise here.
 */
import type { Severity } from '@/lib/health/types';

/** Severities ordered from worst to best; the index is the rank. */
export const SEVERITY_ORDER = ['critical', 'warning', 'info', 'ok'] as const satisfies readonly Severity[];

/** Rank of a severity: 0 = critical (worst), 3 = ok. */
export function severityRank(severity: Severity): number {
  return SEVERITY_ORDER.indexOf(severity);
}

/** Orders severities worst first: negative when `a` is worse than `b`. */
export function compareSeverity(a: Severity, b: Severity): number {
  return severityRank(a) - severityRank(b);
}

/** The worst severity among items (`ok` when there are none). */
export function worstSeverity(items: readonly { severity: Severity }[]): Severity {
  return items.reduce<Severity>(
    (worst, item) => (compareSeverity(item.severity, worst) < 0 ? item.severity : worst),
    'ok',
  );
}

/** The worst severity per detector id, for panel headers. */
export function worstByDetector(
  findings: readonly { detector: string; severity: Severity }[],
): Record<string, Severity> {
  const out: Record<string, Severity> = {};
  for (const f of findings)
    if (!out[f.detector] || compareSeverity(f.severity, out[f.detector]) < 0) out[f.detector] = f.severity;
  return out;
}
