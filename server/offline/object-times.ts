import 'server-only';
import type { Condition, KubeObject } from '@/lib/k8s/types';
import type { ConditionTransition } from '@/lib/health/types';
import { asArray, asObject, asString } from '@/lib/health/shared/objects';
import { conditionTransitions } from '@/lib/cluster/condition-transitions';
import { refOf } from '@/lib/k8s/refs';

/** Kinds whose condition history detectors read (as the live engine records it), plus the ClusterVersion. */
const TRANSITION_KINDS = new Set([
  'ClusterVersion',
  'ClusterOperator',
  'ClusterExtension',
  'ClusterCatalog',
  'BundleDeployment',
]);

function time(value: unknown): number {
  const text = asString(value);
  const ms = text ? Date.parse(text) : NaN;
  return Number.isFinite(ms) ? ms : Number.NEGATIVE_INFINITY;
}

/**
 * The newest time an object itself records: creation, last writes (managedFields), condition transitions and
 * ClusterVersion history. A dump without a `timestamp` file is analyzed as of this time across all objects.
 */
export function newestTime(object: KubeObject): number {
  let newest = time(object.metadata.creationTimestamp);
  for (const entry of asArray(object.metadata.managedFields)) newest = Math.max(newest, time(asObject(entry)?.time));
  const status = asObject(object.status);
  for (const condition of asArray(status?.conditions))
    newest = Math.max(newest, time(asObject(condition)?.lastTransitionTime));
  for (const entry of asArray(status?.history)) {
    newest = Math.max(newest, time(asObject(entry)?.completionTime), time(asObject(entry)?.startedTime));
  }
  return newest;
}

/**
 * Without a recorded history, the best-known transition of each condition of a tracked object is its current
 * value at its `lastTransitionTime`: what a watcher would have seen had it been running then.
 */
export function synthesizedTransitions(object: KubeObject): ConditionTransition[] {
  if (!TRANSITION_KINDS.has(object.kind)) return [];
  const ref = refOf(object);
  return asArray(asObject(object.status)?.conditions).flatMap((value) => {
    const condition = asObject(value) as Condition | undefined;
    const at = asString(condition?.lastTransitionTime);
    if (!condition || typeof condition.type !== 'string' || !at) return [];
    const transition: ConditionTransition = { ref, type: condition.type, status: condition.status, at };
    if (condition.reason !== undefined) transition.reason = condition.reason;
    if (condition.message !== undefined) transition.message = condition.message;
    return [transition];
  });
}

/**
 * Transitions replayed from successive recorded versions of objects (a resourcewatch history): each version is
 * compared with the one before it, exactly as the live engine compares watch events.
 */
export function historyTransitions(history: { at: number; object: KubeObject }[]): ConditionTransition[] {
  const byObject = new Map<string, { at: number; object: KubeObject }[]>();
  for (const entry of history) {
    const { kind, metadata } = entry.object;
    const key = `${kind}/${metadata.namespace ?? ''}/${metadata.name}`;
    byObject.set(key, [...(byObject.get(key) ?? []), entry]);
  }
  const out: ConditionTransition[] = [];
  for (const versions of byObject.values()) {
    versions.sort((a, b) => a.at - b.at);
    let previous: KubeObject | undefined;
    for (const { at, object } of versions) {
      out.push(...conditionTransitions(previous, object, new Date(at).toISOString()));
      previous = object;
    }
  }
  return out;
}
