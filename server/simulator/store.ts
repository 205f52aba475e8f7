import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCE_NAMES, type ResourceName } from '@/lib/k8s/resources';
import type { VirtualClock } from './types';
import { badRequest, continueExpired, tooOldResourceVersion } from './errors';
import { updateManagedFields } from './managed-fields';
import { randomUuid, rfc3339, seededRandom } from './random';
import type { Matcher } from './selectors';

/**
 * One stored object version, immutable once stored. The serialised JSON is what is retained; the parsed object
 * is rebuilt on demand and only weakly cached, so a large cluster costs about its JSON size in memory. `view`
 * keeps the few fields selectors read (name, namespace, labels, spec.nodeName, status.phase).
 */
export class StoredEntry {
  readonly json: string;
  readonly view: KubeObject;
  private ref?: WeakRef<KubeObject>;

  constructor(
    object: KubeObject,
    readonly rv: number,
  ) {
    this.json = JSON.stringify(object);
    this.ref = new WeakRef(object);
    const spec = object.spec as { nodeName?: string } | undefined;
    const status = object.status as { phase?: string } | undefined;
    this.view = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      metadata: { name: object.metadata.name, namespace: object.metadata.namespace, labels: object.metadata.labels },
      ...(spec?.nodeName !== undefined ? { spec: { nodeName: spec.nodeName } } : {}),
      ...(status?.phase !== undefined ? { status: { phase: status.phase } } : {}),
    };
  }

  /** The stored object (shared; callers must not mutate it). */
  get object(): KubeObject {
    let object = this.ref?.deref();
    if (!object) {
      object = JSON.parse(this.json) as KubeObject;
      this.ref = new WeakRef(object);
    }
    return object;
  }

  /** A private deep copy the caller may mutate. */
  copy(): KubeObject {
    return JSON.parse(this.json) as KubeObject;
  }
}

/** A change recorded in a resource type's history and delivered to watchers. */
export interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  resource: ResourceName;
  rv: number;
  entry: StoredEntry;
  /** The state before a MODIFIED event (watchers use it to turn selector transitions into ADDED/DELETED). */
  previous?: StoredEntry;
}

/** Who writes, for metadata.managedFields. */
export interface WriteInfo {
  manager: string;
  operation?: 'Update' | 'Apply';
  subresource?: 'status';
}

/** Options of the object store. */
export interface StoreOptions {
  clock: VirtualClock;
  seed?: number;
  /** Events retained per resource type for watch resume and continue tokens (default 10,000). */
  historyLimit?: number;
}

/** One page of a list. */
export interface ListPage {
  entries: StoredEntry[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

interface ResourceState {
  objects: Map<string, StoredEntry>;
  sortedKeys?: string[];
  history: StoreEvent[];
  /** Watches and continue tokens from an RV below this answer 410 Expired. */
  floorRv: number;
  listeners: Set<(event: StoreEvent) => void>;
}

/** `namespace/name` for namespaced objects, `name` otherwise; also the list order (etcd key order). */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** The entry's serialised JSON. */
export function entryJson(entry: StoredEntry): string {
  return entry.json;
}

/**
 * Types whose API strategy never sets `metadata.generation`: a Lease (coordination's strategy leaves it alone, and
 * a renewal changes `spec.renewTime` alone, which watchers tell from a change of holder).
 */
const WITHOUT_GENERATION: ReadonlySet<ResourceName> = new Set(['leases']);

function withoutVolatile(object: KubeObject): string {
  const { metadata: _metadata, status: _status, ...rest } = object;
  void _metadata;
  void _status;
  return JSON.stringify(rest);
}

/**
 * The object store of one simulated cluster: a global monotonically increasing resourceVersion, deterministic
 * uids, metadata bookkeeping (generation, managedFields, creationTimestamp), bounded per-type history for watch
 * resume, and synchronous change notification.
 */
export class ObjectStore {
  readonly clock: VirtualClock;
  private rv = 1;
  private readonly states = new Map<ResourceName, ResourceState>();
  private readonly uidRandom: () => number;
  readonly historyLimit: number;

  constructor(options: StoreOptions) {
    this.clock = options.clock;
    this.uidRandom = seededRandom(((options.seed ?? 1) ^ 0x5bd1e995) >>> 0);
    this.historyLimit = options.historyLimit ?? 10_000;
    for (const name of RESOURCE_NAMES) {
      this.states.set(name, { objects: new Map(), history: [], floorRv: 0, listeners: new Set() });
    }
  }

  /** The latest resourceVersion handed out (as a number). */
  currentRv(): number {
    return this.rv;
  }

  /** A new deterministic uid. */
  nextUid(): string {
    return randomUuid(this.uidRandom);
  }

  /** Deterministic randomness for generated names. */
  nameRandom(): number {
    return this.uidRandom();
  }

  private state(resource: ResourceName): ResourceState {
    const state = this.states.get(resource);
    if (!state) throw new TypeError(`unknown resource ${resource}`);
    return state;
  }

  /** The stored entry, or undefined. */
  get(resource: ResourceName, namespace: string | undefined, name: string): StoredEntry | undefined {
    return this.state(resource).objects.get(objectKey(namespace, name));
  }

  /** Number of stored objects of a type. */
  count(resource: ResourceName): number {
    return this.state(resource).objects.size;
  }

  /** All entries of a type in key order, optionally within one namespace and filtered. */
  list(resource: ResourceName, namespace?: string, matcher?: Matcher): StoredEntry[] {
    return this.listPage(resource, { namespace, matcher }).entries;
  }

  private sortedKeys(state: ResourceState): string[] {
    if (!state.sortedKeys) state.sortedKeys = [...state.objects.keys()].sort();
    return state.sortedKeys;
  }

  /** A page of a list with `limit` / `continue` semantics; an expired token throws 410. */
  listPage(
    resource: ResourceName,
    options: { namespace?: string; matcher?: Matcher; limit?: number; continueToken?: string },
  ): ListPage {
    const state = this.state(resource);
    let listRv = this.rv;
    let start = options.namespace ? `${options.namespace}/` : '';
    let exclusiveStart = false;
    if (options.continueToken) {
      const token = decodeContinue(options.continueToken);
      if (token.rv < state.floorRv) throw continueExpired();
      listRv = token.rv;
      start = token.start;
      exclusiveStart = true;
    }
    const keys = this.sortedKeys(state);
    let index = lowerBound(keys, start);
    if (exclusiveStart && keys[index] === start) index++;
    const prefix = options.namespace ? `${options.namespace}/` : undefined;
    const limit = options.limit && options.limit > 0 ? options.limit : Infinity;
    const entries: StoredEntry[] = [];
    let lastKey: string | undefined;
    for (; index < keys.length; index++) {
      const key = keys[index];
      if (prefix && !key.startsWith(prefix)) break;
      const entry = state.objects.get(key);
      if (!entry || (options.matcher && !options.matcher(entry.view))) continue;
      if (entries.length >= limit) break;
      entries.push(entry);
      lastKey = key;
    }
    const page: ListPage = { entries, resourceVersion: String(listRv) };
    const more = index < keys.length && (!prefix || keys[index].startsWith(prefix));
    if (more && lastKey !== undefined && entries.length >= limit) {
      page.continueToken = encodeContinue(listRv, lastKey);
      if (!options.matcher) {
        let remaining = 0;
        for (let i = index; i < keys.length && (!prefix || keys[i].startsWith(prefix)); i++) remaining++;
        page.remainingItemCount = remaining;
      }
    }
    return page;
  }

  /** Stores a new object (already validated), stamping uid, creationTimestamp, generation and managedFields. */
  create(resource: ResourceName, object: KubeObject, write: WriteInfo): StoredEntry {
    const now = this.clock.now();
    const rv = ++this.rv;
    const metadata = { ...object.metadata };
    metadata.uid = this.nextUid();
    metadata.creationTimestamp = rfc3339(now);
    if (WITHOUT_GENERATION.has(resource)) delete metadata.generation;
    else metadata.generation = 1;
    metadata.resourceVersion = String(rv);
    delete metadata.deletionTimestamp;
    const stored: KubeObject = { ...object, metadata };
    metadata.managedFields = updateManagedFields(object.metadata.managedFields, stored, {
      manager: write.manager,
      operation: write.operation ?? 'Update',
      subresource: write.subresource,
      now,
    });
    return this.commit(resource, 'ADDED', new StoredEntry(stored, rv));
  }

  /**
   * Stores an object as given (uid, creationTimestamp, generation and managedFields kept; defaults filled when
   * missing), as when loading a snapshot or must-gather. Only the resourceVersion is assigned.
   */
  importObject(resource: ResourceName, object: KubeObject): StoredEntry {
    const rv = ++this.rv;
    const metadata = { ...object.metadata, resourceVersion: String(rv) };
    metadata.uid ??= this.nextUid();
    metadata.creationTimestamp ??= rfc3339(this.clock.now());
    if (!WITHOUT_GENERATION.has(resource)) metadata.generation ??= 1;
    const previous = this.get(resource, metadata.namespace, metadata.name);
    return this.commit(
      resource,
      previous ? 'MODIFIED' : 'ADDED',
      new StoredEntry({ ...object, metadata }, rv),
      previous,
    );
  }

  /**
   * Stores a new version of an existing object: keeps identity fields, bumps generation when anything outside
   * metadata and status changed, and refreshes the writer's managedFields entry.
   */
  update(resource: ResourceName, previous: StoredEntry, object: KubeObject, write: WriteInfo): StoredEntry {
    const now = this.clock.now();
    const old = previous.object;
    const metadata = { ...object.metadata };
    metadata.uid = old.metadata.uid;
    metadata.creationTimestamp = old.metadata.creationTimestamp;
    metadata.name = old.metadata.name;
    if (old.metadata.namespace) metadata.namespace = old.metadata.namespace;
    const specChanged = withoutVolatile(old) !== withoutVolatile(object);
    if (WITHOUT_GENERATION.has(resource)) delete metadata.generation;
    else metadata.generation = (old.metadata.generation ?? 1) + (specChanged ? 1 : 0);
    const candidate: KubeObject = {
      ...object,
      metadata: { ...metadata, resourceVersion: old.metadata.resourceVersion },
    };
    metadata.managedFields = updateManagedFields(old.metadata.managedFields, candidate, {
      manager: write.manager,
      operation: write.operation ?? 'Update',
      subresource: write.subresource,
      now,
    });
    const rv = ++this.rv;
    metadata.resourceVersion = String(rv);
    return this.commit(resource, 'MODIFIED', new StoredEntry({ ...object, metadata }, rv), previous);
  }

  /** Removes an object; the DELETED event carries the last state with the deletion's resourceVersion. */
  delete(resource: ResourceName, previous: StoredEntry): StoredEntry {
    const rv = ++this.rv;
    const object = { ...previous.object, metadata: { ...previous.object.metadata, resourceVersion: String(rv) } };
    return this.commit(resource, 'DELETED', new StoredEntry(object, rv));
  }

  private commit(
    resource: ResourceName,
    type: StoreEvent['type'],
    entry: StoredEntry,
    previous?: StoredEntry,
  ): StoredEntry {
    const state = this.state(resource);
    const key = objectKey(entry.view.metadata.namespace, entry.view.metadata.name);
    if (type === 'DELETED') {
      state.objects.delete(key);
      state.sortedKeys = undefined;
    } else {
      if (!state.objects.has(key)) state.sortedKeys = undefined;
      state.objects.set(key, entry);
    }
    const event: StoreEvent = { type, resource, rv: entry.rv, entry, previous };
    state.history.push(event);
    // Trim in slack-sized chunks so a full history costs O(1) amortised per write, not a shift per event.
    if (state.history.length > this.historyLimit + Math.max(64, this.historyLimit >> 4)) {
      const dropped = state.history.splice(0, state.history.length - this.historyLimit);
      state.floorRv = dropped[dropped.length - 1].rv;
    }
    for (const listener of [...state.listeners]) listener(event);
    return entry;
  }

  /**
   * Events of a type after `sinceRv`, for a watch resuming there; throws 410 Expired when that point is older
   * than the retained history.
   */
  eventsSince(resource: ResourceName, sinceRv: number): StoreEvent[] {
    const state = this.state(resource);
    if (sinceRv < state.floorRv) throw tooOldResourceVersion(sinceRv, state.floorRv + 1);
    const history = state.history;
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (history[mid].rv <= sinceRv) lo = mid + 1;
      else hi = mid;
    }
    return history.slice(lo);
  }

  /** Registers a listener for changes of a type. Returns the unsubscribe function. */
  subscribe(resource: ResourceName, listener: (event: StoreEvent) => void): () => void {
    const state = this.state(resource);
    state.listeners.add(listener);
    return () => state.listeners.delete(listener);
  }

  /** Drops all retained history: every resourceVersion before now becomes too old (410 Expired). */
  compact(): void {
    for (const state of this.states.values()) {
      state.history = [];
      state.floorRv = this.rv;
    }
  }
}

function lowerBound(keys: string[], target: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
}

function decodeContinue(token: string): { rv: number; start: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: string;
      rv?: number;
      start?: string;
    };
    if (parsed.v !== 'meta.k8s.io/v1' || typeof parsed.rv !== 'number' || typeof parsed.start !== 'string')
      throw new Error('shape');
    return { rv: parsed.rv, start: parsed.start };
  } catch {
    throw badRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
}
