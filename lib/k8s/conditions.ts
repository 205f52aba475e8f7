/**
 * Reading standard conditions (`status.conditions[]`) off plain JSON objects. Every function accepts `unknown`
 * input because objects arrive untyped from the API server, fixtures and must-gather archives.
 */
import type { Condition } from '@/lib/k8s/types';

function isCondition(value: unknown): value is Condition {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { type?: unknown; status?: unknown };
  return typeof candidate.type === 'string' && typeof candidate.status === 'string';
}

/** The conditions of an object (`status.conditions`), keeping only well-formed entries; `[]` when absent. */
export function conditionsOf(object: unknown): Condition[] {
  const status = (object as { status?: unknown } | null | undefined)?.status;
  const conditions = (status as { conditions?: unknown } | null | undefined)?.conditions;
  return Array.isArray(conditions) ? conditions.filter(isCondition) : [];
}

/** The first condition of the given type, or `undefined`. Accepts an object or a condition list. */
export function conditionOf<C extends Condition>(list: readonly C[], type: string): C | undefined;
export function conditionOf(source: unknown, type: string): Condition | undefined;
export function conditionOf(source: unknown, type: string): Condition | undefined {
  const list = Array.isArray(source) ? source.filter(isCondition) : conditionsOf(source);
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

/** `lastTransitionTime` as epoch milliseconds, or `undefined` when absent or unparsable. */
export function transitionTimeMs(condition: Condition | undefined): number | undefined {
  if (!condition?.lastTransitionTime) return undefined;
  const parsed = Date.parse(condition.lastTransitionTime);
  return Number.isNaN(parsed) ? undefined : parsed;
}
