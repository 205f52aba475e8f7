/** What the badness order reads from a pod or component row; every field is optional. */
export interface BadnessInput {
  name: string;
  /** Pod phase or waiting reason (`CrashLoopBackOff`, `Running`, `Pending`, ...). */
  status?: string | null;
  /** `ready/total` containers, as `kubectl get pods` prints it. */
  ready?: string | null;
  restarts?: number;
  /** Condition-style flags of a component: `'True'`, `'False'` or unknown. */
  available?: string | null;
  rolloutComplete?: string | null;
  degraded?: string | null;
}

const CRASHING = /CrashLoopBackOff|Error|OOMKilled|ImagePull|Failed/i;

function notReady(ready: string | null | undefined): boolean {
  if (!ready) return false;
  const [have, want] = ready.split('/').map(Number);
  return Number.isFinite(have) && Number.isFinite(want) && have < want;
}

/** Badness rank of a row: 0 crash-looping or failed, 1 not ready / unavailable, 2 degraded or rolling out, 3 fine. */
export function badnessRank(row: BadnessInput): number {
  if (row.status && CRASHING.test(row.status)) return 0;
  if (
    row.available === 'False' ||
    notReady(row.ready) ||
    (row.status != null && row.status !== 'Running' && row.status !== 'Succeeded' && row.status !== 'Completed')
  )
    return 1;
  if (row.degraded === 'True' || row.rolloutComplete === 'False') return 2;
  return 3;
}

/**
 * Comparator putting the worst rows first — crash-looping, then not ready or unavailable, then degraded or still
 * rolling out — then by most restarts, then by name, so the rows an SRE acts on head the table.
 */
export function compareByBadness(a: BadnessInput, b: BadnessInput): number {
  return badnessRank(a) - badnessRank(b) || (b.restarts ?? 0) - (a.restarts ?? 0) || a.name.localeCompare(b.name);
}

/** How many items of each kind a long list holds, most common first (ties by kind), for a one-line summary. */
export function countKinds<T>(items: readonly T[], kindOf: (item: T) => string): { kind: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(kindOf(item), (counts.get(kindOf(item)) ?? 0) + 1);
  return [...counts]
    .map(([kind, count]) => ({ kind, count }))
    .sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
}
