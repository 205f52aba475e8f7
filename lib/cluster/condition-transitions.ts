/**
 * Derives condition transitions from two versions of an object. Conditions only keep their latest message, so
 * recording every change as it is observed is what lets detectors recover a root cause later overwritten.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { conditionsOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import type { ConditionTransition } from '@/lib/health/types';

/**
 * Transitions between `previous` and `next` (either may be absent): one entry per condition whose status, reason or
 * message changed, or which appeared. `at` is the observation time (RFC 3339) — not lastTransitionTime, which does not
 * move when only the message changes.
 */
export function conditionTransitions(
  previous: KubeObject | undefined,
  next: KubeObject | undefined,
  at: string,
): ConditionTransition[] {
  if (!next) return [];
  const before = new Map(conditionsOf(previous).map((condition) => [condition.type, condition]));
  const ref = refOf(next);
  const out: ConditionTransition[] = [];
  for (const condition of conditionsOf(next)) {
    const old = before.get(condition.type);
    if (old && old.status === condition.status && old.reason === condition.reason && old.message === condition.message)
      continue;
    const { type, status, reason, message } = condition;
    // Literals, not properties added one by one: a literal keeps its properties inside the object, where one built
    // up past four properties needs a second object for them, and a cluster keeps hundreds of transitions.
    out.push(
      reason === undefined
        ? message === undefined
          ? { ref, type, status, at }
          : { ref, type, status, message, at }
        : message === undefined
          ? { ref, type, status, reason, at }
          : { ref, type, status, reason, message, at },
    );
  }
  return out;
}
