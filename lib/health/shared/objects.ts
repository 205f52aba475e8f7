/**
 * Small, typed accessors over the plain-JSON objects of a {@link Snapshot}. Detectors read loosely-typed JSON
 * (projections of live objects, must-gather files), so every accessor tolerates missing or wrongly-typed fields.
 */
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { DetectorId, Snapshot } from '@/lib/health/types';

/** A JSON object, for walking `spec` / `status`. */
export type Json = Record<string, unknown>;

/** `value` as a JSON object, or `undefined`. */
export function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `value` as an array, or `[]`. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** `value` if it is a string, else `undefined`. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value` if it is a finite number, else `undefined`. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Walks `path` from `root`; `undefined` as soon as a step is missing. */
export function dig(root: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = root;
  for (const key of path) {
    if (typeof key === 'number') cur = Array.isArray(cur) ? cur[key] : undefined;
    else cur = asObject(cur)?.[key];
  }
  return cur;
}

/** Array of strings at `path` (non-strings dropped), or `[]`. */
export function stringsAt(root: unknown, ...path: string[]): string[] {
  return asArray(dig(root, ...path)).filter((v): v is string => typeof v === 'string');
}

/** Objects of a resource in the snapshot, optionally narrowed to one namespace. */
export function objectsOf(snapshot: Snapshot, resource: ResourceName, namespace?: string): readonly KubeObject[] {
  const all = snapshot.objects[resource] ?? [];
  return namespace === undefined ? all : all.filter((o) => o.metadata.namespace === namespace);
}

/** The object of a resource with that name (and namespace, for namespaced resources). */
export function findObject(
  snapshot: Snapshot,
  resource: ResourceName,
  name: string,
  namespace?: string,
): KubeObject | undefined {
  return objectsOf(snapshot, resource, namespace).find((o) => o.metadata.name === name);
}

/** The ClusterVersion of a snapshot: the one named `version`, else whichever there is. */
export function clusterVersionOf(snapshot: Snapshot): KubeObject | undefined {
  return findObject(snapshot, 'clusterversions', 'version') ?? objectsOf(snapshot, 'clusterversions')[0];
}

/**
 * The stable id of a finding: `${detector}:${kind}/${namespace}/${name}[:${qualifier}]` (namespace empty for
 * cluster-scoped subjects), so the same problem on the same object keeps its id across evaluations.
 */
export function findingId(detector: DetectorId, subject: ObjectRef, qualifier?: string): string {
  const base = `${detector}:${subject.kind}/${subject.namespace ?? ''}/${subject.name}`;
  return qualifier ? `${base}:${qualifier}` : base;
}

/** True when `id` (see {@link findingId}) carries `qualifier`. */
export function hasQualifier(id: string, qualifier: string): boolean {
  return id.endsWith(`:${qualifier}`);
}

/** Milliseconds since epoch of an RFC 3339 timestamp, `undefined` when absent or unparseable. */
export function timeOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}
