import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';

/** `namespace/name` for namespaced objects, `name` for cluster-scoped ones. */
export function cacheKey(object: Pick<KubeObject, 'metadata'>): string {
  const { namespace, name } = object.metadata;
  return namespace ? `${namespace}/${name}` : name;
}

/** What replacing the whole content changed, in the order events should be emitted. */
export interface ReplaceDiff<T> {
  deleted: T[];
  added: T[];
  modified: { previous: T; object: T }[];
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * The objects of one source keyed by `namespace/name`. `version` grows on every change so readers can tell
 * cheaply whether anything moved since they last looked. An empty cache (about half the sources of an idle
 * cluster: kinds it does not run, namespaces with nothing in them) holds no map and lists a shared empty array.
 */
export class ObjectCache<T extends KubeObject = KubeObject> {
  private items: Map<string, T> | undefined;
  private counter = 0;
  private listed: { version: number; items: readonly T[] } | undefined;

  /** Increases on every mutation. */
  get version(): number {
    return this.counter;
  }

  /** Number of cached objects. */
  get size(): number {
    return this.items?.size ?? 0;
  }

  /** The object under `key` (`ns/name` or `name`). */
  get(key: string): T | undefined {
    return this.items?.get(key);
  }

  /** The object with this name (and namespace for namespaced kinds). */
  getByName(name: string, namespace?: string): T | undefined {
    return this.get(namespace ? `${namespace}/${name}` : name);
  }

  /**
   * All cached objects, in insertion order. The array is shared until the next change (a fleet re-evaluates
   * every cluster periodically, mostly with nothing changed): never mutate it.
   */
  list(): readonly T[] {
    if (!this.items) return EMPTY;
    if (this.listed?.version !== this.counter) this.listed = { version: this.counter, items: [...this.items.values()] };
    return this.listed.items;
  }

  /** All keys. */
  keys(): string[] {
    return this.items ? [...this.items.keys()] : [];
  }

  /** Inserts or replaces; returns the object it replaced. */
  upsert(object: T): T | undefined {
    const key = cacheKey(object);
    this.items ??= new Map();
    const previous = this.items.get(key);
    this.items.set(key, object);
    this.counter += 1;
    return previous;
  }

  /** Removes by key; returns the removed object. */
  delete(key: string): T | undefined {
    const previous = this.items?.get(key);
    if (previous === undefined) return undefined;
    this.items?.delete(key);
    this.counter += 1;
    this.emptied();
    return previous;
  }

  /**
   * Replaces the whole content with a fresh consistent list and reports the difference: objects gone, new
   * objects, and objects whose resourceVersion changed. Objects with the same resourceVersion count as unchanged;
   * a name that now carries another uid counts as a delete plus an add.
   */
  replace(objects: T[]): ReplaceDiff<T> {
    const next = new Map<string, T>();
    for (const object of objects) next.set(cacheKey(object), object);
    const diff: ReplaceDiff<T> = { deleted: [], added: [], modified: [] };
    for (const [key, previous] of this.items ?? []) if (!next.has(key)) diff.deleted.push(previous);
    for (const [key, object] of next) {
      const previous = this.items?.get(key);
      if (previous === undefined) {
        diff.added.push(object);
      } else if (previous.metadata.uid && object.metadata.uid && previous.metadata.uid !== object.metadata.uid) {
        // deleted and recreated under the same name while we were not watching
        diff.deleted.push(previous);
        diff.added.push(object);
      } else if (previous.metadata.resourceVersion !== object.metadata.resourceVersion) {
        diff.modified.push({ previous, object });
      }
    }
    // the new map replaces the old one rather than refilling it: a map keeps the table of its largest size
    this.items = next.size > 0 ? next : undefined;
    this.counter += 1;
    this.emptied();
    return diff;
  }

  /** Lets go of the map and the last list once the cache is empty. */
  private emptied(): void {
    if (this.items?.size) return;
    this.items = undefined;
    this.listed = undefined;
  }
}
