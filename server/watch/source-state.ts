import 'server-only';
import type { ResourceName } from '@/lib/k8s/resources';
import type { ReflectorClock } from './backoff';

/**
 * Health of one watched source:
 * - `pending`: never synced yet (possibly retrying, see `error`);
 * - `synced`: listed and watching;
 * - `stale`: re-watching/relisting has failed and the cache's last proof of freshness (LIST, event or bookmark) is
 *   older than the staleness threshold; `since` is when it crossed it, `error` why, `retryAt` the next attempt;
 * - `forbidden` / `unauthorized`: RBAC or credentials refuse the request; retried slowly;
 * - `unreachable`: connection, DNS, TLS or header timeout failures.
 */
export type SourceStatus = 'pending' | 'synced' | 'stale' | 'forbidden' | 'unauthorized' | 'unreachable';

/** The last failure of a source, as plain data. */
export interface SourceError {
  code?: number;
  reason?: string;
  message: string;
}

/** Monotonic counters of a source. */
export interface SourceCounters {
  /** Completed LISTs (each followed by a `synced` event). */
  lists: number;
  /** WATCH requests sent. */
  watches: number;
  /** LISTs started again from scratch because the watch or RV expired (410). */
  relists: number;
  /** WATCH requests that resumed from an existing resourceVersion after an earlier watch. */
  reconnects: number;
  /** Paged LISTs restarted because a continue token expired. */
  listRestarts: number;
  /** Stream lines that were not a valid watch event (skipped). */
  parseErrors: number;
  /** Exceptions and rejections from the handler or transform (caught). */
  handlerErrors: number;
  /** Object events delivered to the handler (including synthetic ones). */
  events: number;
  /** BOOKMARK events received. */
  bookmarks: number;
}

/** What the UI shows for one source. Plain JSON. */
export interface SourceState {
  resource: ResourceName;
  namespace?: string;
  status: SourceStatus;
  /** RFC 3339 time `status` last changed. */
  since: string;
  lastSyncAt?: string;
  lastEventAt?: string;
  error?: SourceError;
  /** RFC 3339 time of the next scheduled attempt while waiting after a failure. */
  retryAt?: string;
  /** Last resourceVersion seen (list, event or bookmark). */
  resourceVersion?: string;
  /** Objects in the cache. */
  objects: number;
  counters: SourceCounters;
}

/** Mutable bookkeeping behind `SourceState`; only the reflector writes it. */
export class SourceStateTracker {
  readonly counters: SourceCounters = {
    lists: 0,
    watches: 0,
    relists: 0,
    reconnects: 0,
    listRestarts: 0,
    parseErrors: 0,
    handlerErrors: 0,
    events: 0,
    bookmarks: 0,
  };
  private current: SourceStatus = 'pending';
  private sinceMs: number;
  private lastSyncMs?: number;
  private lastEventMs?: number;
  private lastError?: SourceError;
  private retryAtMs?: number;

  /**
   * `onChange` is told (after the change) when the status changes, or a pending source's failure appears or clears
   * (it settled, or retries), except by {@link synced}: the reflector's `synced` event says that one. A failure noted
   * on a synced source (a lost watch, retried while the cache stays fresh) tells nothing: a fleet's reconnect would
   * otherwise re-evaluate every cluster twice for a status that did not change.
   */
  constructor(
    private readonly clock: ReflectorClock,
    private readonly resource: ResourceName,
    private readonly namespace?: string,
    private readonly onChange?: () => void,
  ) {
    this.sinceMs = clock.now();
  }

  /** Current status. */
  get status(): SourceStatus {
    return this.current;
  }

  /** Sets the status; `since` moves only when it actually changes. */
  set(status: SourceStatus, error?: SourceError): void {
    if (this.update(status, error)) this.onChange?.();
  }

  /** A LIST completed. */
  synced(): void {
    this.lastSyncMs = this.clock.now();
    this.update('synced', undefined);
  }

  /** Records the status and failure; true when that is a change `onChange` is told of. */
  private update(status: SourceStatus, error: SourceError | undefined): boolean {
    const changed = status !== this.current || this.settles(error);
    if (status !== this.current) {
      this.current = status;
      this.sinceMs = this.clock.now();
    }
    this.lastError = error;
    return changed;
  }

  /** The last failure, if the source has not recovered from it. */
  get error(): SourceError | undefined {
    return this.lastError;
  }

  /** Records (or clears) the last failure without changing the status. */
  noteError(error: SourceError | undefined): void {
    const changed = this.settles(error);
    this.lastError = error;
    if (changed) this.onChange?.();
  }

  /** A pending source's failure appears or clears: whether it settled changes (failed, or retrying). */
  private settles(error: SourceError | undefined): boolean {
    return this.current === 'pending' && (error === undefined) !== (this.lastError === undefined);
  }

  /** Any watch event arrived. */
  eventSeen(): void {
    this.lastEventMs = this.clock.now();
  }

  /** Records the time of the next attempt, or clears it. */
  retryAt(delayMs: number | undefined): void {
    this.retryAtMs = delayMs === undefined ? undefined : this.clock.now() + delayMs;
  }

  /** A JSON snapshot. */
  snapshot(extra: { resourceVersion?: string; objects: number }): SourceState {
    const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
    const state: SourceState = {
      resource: this.resource,
      status: this.current,
      since: new Date(this.sinceMs).toISOString(),
      objects: extra.objects,
      counters: { ...this.counters },
    };
    if (this.namespace) state.namespace = this.namespace;
    if (this.lastSyncMs !== undefined) state.lastSyncAt = iso(this.lastSyncMs);
    if (this.lastEventMs !== undefined) state.lastEventAt = iso(this.lastEventMs);
    if (this.lastError) state.error = { ...this.lastError };
    if (this.retryAtMs !== undefined) state.retryAt = iso(this.retryAtMs);
    if (extra.resourceVersion) state.resourceVersion = extra.resourceVersion;
    return state;
  }
}
