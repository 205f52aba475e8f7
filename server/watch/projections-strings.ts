import 'server-only';
import { createHash } from 'node:crypto';

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** `value` if it is a JSON object, else an empty one. */
export function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** A copy of `value` without its undefined properties. */
export function defined<T extends Json>(value: T): T {
  const keys = Object.keys(value);
  // A spread copies the literal's layout, every property inside the object. Built key by key, an object keeps only
  // its first four there and the rest in a second object: one more object for every full collection to mark, for
  // each of a fleet's hundreds of thousands of cached conditions and references.
  if (keys.every((key) => value[key] !== undefined)) return { ...value };
  // A copy rather than `delete`: deleting properties drops V8 objects into dictionary mode, several times larger.
  const out: Json = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out as T;
}

const INTERN_LIMIT = 200_000;
const INTERN_MAX_LENGTH = 2_048;

/** A copy of a string that shares no storage with it (a slice or concatenation would still point at the original). */
function flatCopy(value: string): string {
  return value.length < 13 ? value : Buffer.from(value, 'utf8').toString('utf8');
}
const interned = new Map<string, string>();

/**
 * A deep copy of parsed JSON with every string shared as {@link internStrings} does; the input is not changed (its
 * nested parts may be shared with other holders). Fleets repeat the same condition reasons and messages, versions,
 * release images and URLs in every cluster's objects; the parser makes a new copy of each.
 */
export function internedCopy<T>(value: T): T {
  // A long text (a ConfigMap's data, a rendered manifest) is seldom repeated, and the table would keep it after its
  // object changed.
  if (typeof value === 'string') return value.length <= INTERN_MAX_LENGTH ? internStrings(value) : value;
  if (Array.isArray(value)) return value.map((item: unknown) => internedCopy(item)) as T;
  if (value !== null && typeof value === 'object') {
    // Spread, then each property replaced: the copy keeps the parsed object's layout, every property inside it (see
    // `defined`).
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of Object.keys(out)) {
      // Unique per object: sharing them saves nothing and would churn the bounded table.
      if (key !== 'uid' && key !== 'resourceVersion') out[key] = internedCopy(out[key]);
    }
    return out as T;
  }
  return value;
}

/**
 * Replaces every string value of a freshly built projection with one shared copy per distinct value. Pods repeat
 * the same timestamps, statuses, node names and owner kinds thousands of times, and each JSON.parse makes new
 * copies; sharing them is most of what keeps a cached pod within its memory budget. The table is bounded.
 */
export function internStrings<T>(value: T): T {
  if (typeof value === 'string') {
    const hit = interned.get(value);
    if (hit !== undefined) return hit as T;
    if (interned.size >= INTERN_LIMIT) interned.clear();
    // Keep a copy of its own: a parser's string may be a slice of the whole source text (js-yaml's always are), and
    // the table would keep that text alive as long as the value stays interned.
    const own = flatCopy(value);
    interned.set(own, own);
    return own as T;
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = internStrings(value[index]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = internStrings(record[key]);
  }
  return value;
}

const SHARED_LIMIT = 1_000;
const shared = new Map<string, unknown>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/**
 * One frozen copy of parsed JSON shared by every holder of an equal value (like {@link internStrings}, for whole
 * subtrees): a fleet's clusters on one version and channel are offered the same update lists, tens of kilobytes of
 * small objects each. Frozen because it is shared: a change in place would show in every cluster. Bounded.
 */
export function sharedValue<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  const key = createHash('sha256').update(JSON.stringify(value)).digest('base64');
  const hit = shared.get(key);
  if (hit !== undefined) return hit as T;
  if (shared.size >= SHARED_LIMIT) shared.clear();
  shared.set(key, deepFreeze(value));
  return value;
}
