/**
 * Helpers for reading standard conditions (`status.conditions[]`) off plain JSON objects. Every function accepts
 * `unknown` input because objects arrive untyped from the API server, fixtures and must-gather archives.
 */
import type { Condition, KubeObject } from '@/lib/k8s/types';

function isCondition(value: unknown): value is Condition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { type?: unknown; status?: unknown };
  return typeof candidate.type === 'string' && typeof candidate.status === 'string';
}

/** The conditions of an object (`status.conditions`), or `[]` when absent or malformed. */
export function conditionsOf(object: KubeObject | undefined): Condition[] {
  const status = object?.status as { conditions?: unknown } | undefined;
  const conditions = status?.conditions;
  return Array.isArray(conditions) ? conditions.filter(isCondition) : [];
}

/** The first condition of the given type, or `undefined`. Accepts an object or a condition list. */
export function findCondition(source: KubeObject | Condition[] | undefined, type: string): Condition | undefined {
  const list = Array.isArray(source) ? source : conditionsOf(source);
  return list.find((condition) => condition.type === type);
}

/** Whether the condition is present and has status `True`. */
export function isTrue(condition: Condition | undefined): boolean {
  return condition?.status === 'True';
}

/** Whether the condition is present and has status `False`. */
export function isFalse(condition: Condition | undefined): boolean {
  return condition?.status === 'False';
}

/** Whether the object has a condition of the given type with status `True`. */
export function hasTrueCondition(source: KubeObject | Condition[] | undefined, type: string): boolean {
  return isTrue(findCondition(source, type));
}

/** `lastTransitionTime` as epoch milliseconds, or `undefined` when absent or unparsable. */
export function transitionTimeMs(condition: Condition | undefined): number | undefined {
  if (!condition?.lastTransitionTime) return undefined;
  const parsed = Date.parse(condition.lastTransitionTime);
  return Number.isNaN(parsed) ? undefined : parsed;
}
