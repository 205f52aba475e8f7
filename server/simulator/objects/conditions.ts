import type { Condition } from '@/lib/k8s/types';
import { iso } from './time';

/**
 * Sets `next` in `conditions` the way operators do: lastTransitionTime only moves when the status changes, other
 * conditions keep their order. Returns a new array.
 */
export function setCondition(conditions: Condition[] | undefined, next: Condition, nowMs: number): Condition[] {
  const list = [...(conditions ?? [])];
  const index = list.findIndex((condition) => condition.type === next.type);
  const previous = index >= 0 ? list[index] : undefined;
  const lastTransitionTime =
    previous && previous.status === next.status && previous.lastTransitionTime
      ? previous.lastTransitionTime
      : (next.lastTransitionTime ?? iso(nowMs));
  const merged: Condition = { ...next, lastTransitionTime };
  if (index >= 0) list[index] = merged;
  else list.push(merged);
  return list;
}
