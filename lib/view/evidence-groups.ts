import type { FindingDto } from '@/lib/api/dto';

type Evidence = FindingDto['evidence'][number];

/** Lists longer than this are summarised, with the full list behind a disclosure. */
export const LONG_LIST = 8;

/** Names of the pods a finding's log evidence comes from: the consumers that crash-loop or fail. */
export function failingPods(evidence: readonly Evidence[]): string[] {
  return [...new Set(evidence.filter((e) => e.kind === 'log' && e.ref?.kind === 'Pod').map((e) => e.ref!.name))];
}

// `<deployment>-<replicaset hash>-<suffix>`, `<daemonset>-<suffix>` or `<statefulset>-<ordinal>`.
function ownedBy(pod: string, name: string): boolean {
  if (!pod.startsWith(`${name}-`)) return false;
  return /^(?:(?:[a-z0-9]{5,10}-)?[a-z0-9]{5}|\d+)$/.test(pod.slice(name.length + 1));
}

/**
 * Splits a list of component names into those with a failing pod (a pod named after the component, as Deployments
 * and StatefulSets name theirs) and the rest, each keeping its order, so the crash-looping ones can be shown first.
 */
export function groupByFailing(
  names: readonly string[],
  pods: readonly string[],
): { failing: string[]; rest: string[] } {
  const hit = (name: string): boolean => pods.some((pod) => pod === name || ownedBy(pod, name));
  return { failing: names.filter(hit), rest: names.filter((n) => !hit(n)) };
}

/**
 * Evidence in the order an SRE reads proof: what is failing (logs of crash-looping or failing pods) before the
 * fields that explain it; otherwise the detector's order is kept.
 */
export function orderEvidence(evidence: readonly Evidence[]): Evidence[] {
  const rank = (e: Evidence): number => (e.kind === 'log' ? 0 : 1);
  return evidence
    .map((e, i) => ({ e, i }))
    .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
    .map(({ e }) => e);
}

/**
 * Shortens every parenthesised comma-separated list longer than {@link LONG_LIST} items in a finding's prose to
 * its first three items and how many more, e.g. `(33: a, b, c and 30 more)`; shorter lists are kept as written.
 */
export function shortenLists(text: string): string {
  return text.replace(/\(([^()]+)\)/g, (whole, inner: string) => {
    const items = inner.split(', ');
    if (items.length <= LONG_LIST) return whole;
    return `(${items.length}: ${items.slice(0, 3).join(', ')} and ${items.length - 3} more)`;
  });
}
