import type { Evidence } from '@/lib/health/types';
import { LONG_LIST } from './evidence-groups';

/** Longest line a findings-list row gives a summary; the evidence drawer has the rest. */
export const ROW_SUMMARY_MAX = 160;

/**
 * What is wrong, in one line, for a findings-list row: the summary's first sentence with every parenthesised list
 * longer than {@link LONG_LIST} items left out (the count before it stays, e.g. `33 control-plane components`), cut
 * at a word before {@link ROW_SUMMARY_MAX} characters. The full text is the evidence drawer's.
 */
export function findingRowSummary(summary: string): string {
  const first = summary.split(/(?<=[.!?])\s+(?=[A-Z'"`(])/)[0] ?? '';
  const lean = first
    .replace(/\s*\(([^()]+)\)/g, (whole, inner: string) => (inner.split(', ').length > LONG_LIST ? '' : whole))
    .replace(/\s+/g, ' ')
    .trim();
  if (lean.length <= ROW_SUMMARY_MAX) return lean;
  const cut = lean.slice(0, ROW_SUMMARY_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > ROW_SUMMARY_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

const KIND_NOUNS: Record<Evidence['kind'], [one: string, many: string]> = {
  condition: ['condition', 'conditions'],
  log: ['log', 'logs'],
  field: ['field', 'fields'],
  metric: ['metric', 'metrics'],
  object: ['object', 'objects'],
};

/**
 * The evidence behind a finding by kind, most first (ties in the order conditions, logs, fields, metrics, objects),
 * e.g. `2 logs · 1 field`; empty without evidence.
 */
export function evidenceCounts(evidence: readonly Pick<Evidence, 'kind'>[]): string {
  const order = Object.keys(KIND_NOUNS) as Evidence['kind'][];
  const counts = new Map<Evidence['kind'], number>();
  for (const { kind } of evidence) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || order.indexOf(a) - order.indexOf(b))
    .map(([kind, count]) => `${count} ${KIND_NOUNS[kind][count === 1 ? 0 : 1]}`)
    .join(' · ');
}
