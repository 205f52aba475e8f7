import type { KubeObject, ManagedFieldsEntry } from '@/lib/k8s/types';
import { rfc3339 } from './random';

/** List fields merged by a key, as server-side apply identifies their items (`k:{"name":"c"}`). */
const LIST_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  imagePullSecrets: 'name',
  conditions: 'type',
  containerStatuses: 'name',
  initContainerStatuses: 'name',
  volumeMounts: 'mountPath',
  ownerReferences: 'uid',
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** FieldsV1 of a value: `f:<field>` for object keys, `k:{...}` for keyed list items, `{}` for leaves. */
function fieldsOf(value: Record<string, unknown>, isMap: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = isMap ? { '.': {} } : {};
  for (const [key, child] of Object.entries(value)) {
    out[`f:${key}`] = fieldsOfChild(key, child);
  }
  return out;
}

function fieldsOfChild(key: string, child: unknown): Record<string, unknown> {
  if (isPlainObject(child)) return fieldsOf(child, key === 'labels' || key === 'annotations');
  const listKey = LIST_KEYS[key];
  if (Array.isArray(child) && listKey) {
    const out: Record<string, unknown> = { '.': {} };
    for (const item of child) {
      if (!isPlainObject(item) || item[listKey] === undefined) continue;
      out[`k:${JSON.stringify({ [listKey]: item[listKey] })}`] = fieldsOf(item, true);
    }
    return out;
  }
  return {};
}

/** The fields a write of `object` sets: status only for the status subresource, everything else otherwise. */
export function fieldsV1For(object: KubeObject, subresource: string | undefined): Record<string, unknown> {
  if (subresource === 'status') {
    return isPlainObject(object.status) ? { 'f:status': fieldsOf(object.status, false) } : {};
  }
  const out: Record<string, unknown> = {};
  const meta: Record<string, unknown> = {};
  if (object.metadata.labels && Object.keys(object.metadata.labels).length)
    meta['f:labels'] = fieldsOf(object.metadata.labels, true);
  if (object.metadata.annotations && Object.keys(object.metadata.annotations).length) {
    meta['f:annotations'] = fieldsOf(object.metadata.annotations, true);
  }
  if (object.metadata.ownerReferences?.length)
    meta['f:ownerReferences'] = fieldsOfChild('ownerReferences', object.metadata.ownerReferences);
  if (Object.keys(meta).length) out['f:metadata'] = meta;
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata' || key === 'status') continue;
    out[`f:${key}`] = fieldsOfChild(key, value);
  }
  return out;
}

/**
 * Replaces the entry of `manager` + `subresource` with a fresh one (one entry per manager and subresource, as
 * the API server keeps them), leaving other managers' entries untouched.
 */
export function updateManagedFields(
  previous: ManagedFieldsEntry[] | undefined,
  object: KubeObject,
  write: { manager: string; operation: 'Update' | 'Apply'; subresource?: string; now: number },
): ManagedFieldsEntry[] {
  const subresource = write.subresource || undefined;
  const kept = (previous ?? []).filter(
    (entry) => !(entry.manager === write.manager && (entry.subresource || undefined) === subresource),
  );
  const entry: ManagedFieldsEntry = {
    manager: write.manager,
    operation: write.operation,
    apiVersion: object.apiVersion,
    time: rfc3339(write.now),
    fieldsType: 'FieldsV1',
    fieldsV1: fieldsV1For(object, subresource),
  };
  if (subresource) entry.subresource = subresource;
  return [...kept, entry];
}
