/** References to objects (the subject of findings, the `ref` of evidence and transitions). */
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';

/** The reference of an object (apiVersion, kind, name, namespace when set). */
export function refOf(object: KubeObject): ObjectRef {
  const ref: ObjectRef = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata.name };
  if (object.metadata.namespace) ref.namespace = object.metadata.namespace;
  return ref;
}

/**
 * The reference of untyped JSON (an incident's frozen excerpt, a must-gather file), or `undefined` when it has no
 * string kind and name. apiVersion and namespace are kept when they are strings.
 */
export function refOfJson(value: unknown): ObjectRef | undefined {
  const object = value as { apiVersion?: unknown; kind?: unknown; metadata?: unknown } | null | undefined;
  const metadata = object?.metadata as { name?: unknown; namespace?: unknown } | null | undefined;
  if (typeof object?.kind !== 'string' || typeof metadata?.name !== 'string') return undefined;
  return {
    ...(typeof object.apiVersion === 'string' ? { apiVersion: object.apiVersion } : {}),
    kind: object.kind,
    name: metadata.name,
    ...(typeof metadata.namespace === 'string' && metadata.namespace ? { namespace: metadata.namespace } : {}),
  };
}
