/**
 * The one order of findings, and which finding speaks for a cluster. Findings must not reorder as their numbers
 * wiggle, so the order uses only what is stable: severity, observed before predicted, onset, id.
 */
import type { Finding } from '@/lib/health/types';
import { compareSeverity } from '@/lib/health/severity';
import { timeOf } from '@/lib/health/shared/objects';

/** What {@link compareFindings} reads, so served DTOs sort the same way as detector output. */
export type OrderedFinding = Pick<Finding, 'id' | 'severity' | 'since' | 'basis'>;

/**
 * Orders findings worst first: severity (critical first), then observed before predicted, then onset (earliest
 * first; unknown onset last), then id, so the output is deterministic and stable over time.
 */
export function compareFindings(a: OrderedFinding, b: OrderedFinding): number {
  const onset = (f: OrderedFinding): number => timeOf(f.since) ?? Number.POSITIVE_INFINITY;
  const predicted = (f: OrderedFinding): number => Number(f.basis === 'predicted');
  return (
    compareSeverity(a.severity, b.severity) ||
    predicted(a) - predicted(b) ||
    (onset(a) === onset(b) ? 0 : onset(a) < onset(b) ? -1 : 1) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Findings in the one order ({@link compareFindings}), as a new array: never by title, whose numbers move between
 * evaluations, so live updates do not reorder the list.
 */
export function sortFindings<T extends OrderedFinding>(findings: readonly T[]): T[] {
  return [...findings].sort(compareFindings);
}

/**
 * Whether a finding may speak for its cluster (the fleet row's worst finding and severity): not an `ok` check and
 * not an info-level prediction — a healthy cluster whose only finding is "a rollback would …" is OK.
 */
export function speaksForCluster(finding: Pick<Finding, 'severity' | 'basis'>): boolean {
  return finding.severity !== 'ok' && !(finding.basis === 'predicted' && finding.severity === 'info');
}
