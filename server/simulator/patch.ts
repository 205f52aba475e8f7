import { badRequest } from './errors';
import { ApiStatusError } from './types';
import { failure } from './errors';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** RFC 7386 JSON merge patch. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  const out: Record<string, Json> = isPlainObject(target) ? { ...(clone(target) as Record<string, Json>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value) as Json;
  }
  return out;
}

interface JsonPatchOp {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw badRequest(`the server rejected our request due to an error in our request`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function patchFailed(message: string): ApiStatusError {
  return new ApiStatusError(failure(422, 'Invalid', message));
}

function locate(root: Json, tokens: string[], pointer: string): { parent: Json; key: string } {
  let node = root;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isPlainObject(node)) node = node[token];
    else node = undefined as unknown as Json;
    if (node === undefined || node === null) throw patchFailed(`doc is missing path: "${pointer}": missing value`);
  }
  return { parent: node, key: tokens[tokens.length - 1] };
}

function getAt(root: Json, pointer: string): Json {
  const tokens = parsePointer(pointer);
  if (!tokens.length) return root;
  const { parent, key } = locate(root, tokens, pointer);
  const value = Array.isArray(parent) ? parent[Number(key)] : isPlainObject(parent) ? parent[key] : undefined;
  if (value === undefined) throw patchFailed(`doc is missing path: "${pointer}": missing value`);
  return value;
}

function removeAt(root: Json, pointer: string): Json {
  const { parent, key } = locate(root, parsePointer(pointer), pointer);
  if (Array.isArray(parent)) {
    const index = Number(key);
    if (!Number.isInteger(index) || index < 0 || index >= parent.length) {
      throw patchFailed(`Unable to remove nonexistent key: ${key}: missing value`);
    }
    return parent.splice(index, 1)[0];
  }
  if (!isPlainObject(parent) || !(key in parent))
    throw patchFailed(`Unable to remove nonexistent key: ${key}: missing value`);
  const value = parent[key];
  delete parent[key];
  return value;
}

function addAt(root: Json, pointer: string, value: Json, replace: boolean): Json {
  const tokens = parsePointer(pointer);
  if (!tokens.length) return value;
  const { parent, key } = locate(root, tokens, pointer);
  if (Array.isArray(parent)) {
    const index = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(index) || index < 0 || index > parent.length)
      throw patchFailed(`add operation does not apply: doc is missing path: "${pointer}": missing value`);
    if (replace) parent[index] = value;
    else parent.splice(index, 0, value);
  } else if (isPlainObject(parent)) {
    if (replace && !(key in parent))
      throw patchFailed(`replace operation does not apply: doc is missing key: ${pointer}: missing value`);
    parent[key] = value;
  } else {
    throw patchFailed(`add operation does not apply: doc is missing path: "${pointer}": missing value`);
  }
  return root;
}

/** RFC 6902 JSON patch (add, remove, replace, move, copy, test). */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations))
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = clone(target) as Json;
  for (const raw of operations as JsonPatchOp[]) {
    const value = clone(raw.value) as Json;
    switch (raw.op) {
      case 'add':
        doc = addAt(doc, raw.path, value, false);
        break;
      case 'replace':
        doc = addAt(doc, raw.path, value, true);
        break;
      case 'remove':
        removeAt(doc, raw.path);
        break;
      case 'move': {
        const moved = removeAt(doc, raw.from ?? '');
        doc = addAt(doc, raw.path, moved, false);
        break;
      }
      case 'copy':
        doc = addAt(doc, raw.path, clone(getAt(doc, raw.from ?? '')), false);
        break;
      case 'test':
        if (JSON.stringify(getAt(doc, raw.path)) !== JSON.stringify(value)) {
          throw patchFailed(`testing value ${raw.path} failed: test failed`);
        }
        break;
      default:
        throw badRequest(`Unexpected kind: ${raw.op}`);
    }
  }
  return doc;
}

/** Merge keys of list fields in core/apps/policy/coordination types (patchMergeKey in the Go structs). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  imagePullSecrets: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  conditions: 'type',
  ownerReferences: 'uid',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  addresses: 'type',
  taints: 'key',
};

/** Primitive lists merged as sets (patchStrategy "merge" on []string). */
const SET_LISTS = new Set(['finalizers']);

function mergeKeyFor(field: string, parentPath: string[]): string | undefined {
  if (field === 'ports') return parentPath[parentPath.length - 1] === 'spec' ? 'port' : 'containerPort';
  return MERGE_KEYS[field];
}

function strategicValue(original: unknown, patch: unknown, path: string[]): unknown {
  if (!isPlainObject(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const rest = { ...patch };
    delete rest.$patch;
    return clone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Record<string, Json> = isPlainObject(original) ? (clone(original) as Record<string, Json>) : {};
  for (const [key, value] of Object.entries(patch)) {
    if (
      key === '$patch' ||
      key === '$retainKeys' ||
      key.startsWith('$setElementOrder/') ||
      key.startsWith('$deleteFromPrimitiveList/')
    ) {
      if (key.startsWith('$deleteFromPrimitiveList/') && Array.isArray(value)) {
        const field = key.slice('$deleteFromPrimitiveList/'.length);
        const current = out[field];
        if (Array.isArray(current))
          out[field] = current.filter((item) => !value.some((gone) => JSON.stringify(gone) === JSON.stringify(item)));
      }
      continue;
    }
    if (value === null) {
      delete out[key];
      continue;
    }
    const mergeKey = mergeKeyFor(key, path);
    if (Array.isArray(value) && mergeKey && Array.isArray(out[key])) {
      out[key] = mergeKeyedList(out[key] as Json[], value, mergeKey, [...path, key]);
    } else if (Array.isArray(value) && SET_LISTS.has(key) && Array.isArray(out[key])) {
      const merged = [...(out[key] as Json[])];
      for (const item of value) if (!merged.some((existing) => existing === item)) merged.push(item);
      out[key] = merged;
    } else {
      const next = strategicValue(out[key], value, [...path, key]);
      if (next === undefined) delete out[key];
      else out[key] = next as Json;
    }
  }
  return out;
}

function mergeKeyedList(original: Json[], patch: Json[], mergeKey: string, path: string[]): Json[] {
  const out = original.map((item) => clone(item));
  if (patch.some((item) => isPlainObject(item) && item.$patch === 'replace')) {
    return patch.filter((item) => !(isPlainObject(item) && item.$patch === 'replace')).map((item) => clone(item));
  }
  for (const item of patch) {
    if (!isPlainObject(item) || item[mergeKey] === undefined) {
      out.push(clone(item));
      continue;
    }
    const index = out.findIndex((existing) => isPlainObject(existing) && existing[mergeKey] === item[mergeKey]);
    if (item.$patch === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    if (index >= 0) out[index] = strategicValue(out[index], item, path) as Json;
    else out.push(strategicValue(undefined, item, path) as Json);
  }
  return out;
}

/** Strategic merge patch for built-in types: keyed lists merge by their patchMergeKey, directives honoured. */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch))
    throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
  return strategicValue(target, patch, []);
}
