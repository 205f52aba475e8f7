/**
 * Structural sharing between two versions of one JSON value, as TanStack Query does for the data it caches.
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * `next`, with every part deep-equal to the same part of `previous` taken from `previous`: `previous` itself when the
 * two are equal, else a copy of `next` whose unchanged objects, arrays and strings are `previous`'s. Neither input is
 * changed, so both may be shared with other holders.
 *
 * A server that publishes a cluster's health on every change and keeps it until the next one would otherwise keep a
 * whole new copy each time: objects that live seconds, past the young generation, for a full collection to find dead.
 * Kept from `previous`, only what changed is new. A copied object is spread from `next`, so it has `next`'s layout,
 * every property inside it.
 */
export function keepUnchanged<T>(previous: unknown, next: T): T {
  // equal strings are `===`: the one kept is the one already held
  if (previous === next) return previous as T;
  if (Array.isArray(previous) && Array.isArray(next)) {
    let same = previous.length === next.length;
    const out = next.map((item: unknown, index) => {
      const kept = keepUnchanged(previous[index], item);
      if (kept !== previous[index]) same = false;
      return kept;
    });
    return (same ? previous : out) as T;
  }
  if (isRecord(previous) && isRecord(next)) {
    const out: Json = { ...next };
    const keys = Object.keys(out);
    let same = keys.length === Object.keys(previous).length;
    for (const key of keys) {
      const kept = keepUnchanged(previous[key], out[key]);
      out[key] = kept;
      if (kept !== previous[key] || !Object.hasOwn(previous, key)) same = false;
    }
    return (same ? previous : out) as T;
  }
  return next;
}
