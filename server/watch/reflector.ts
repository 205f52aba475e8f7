import 'server-only';
import { collectionPath } from '@/lib/k8s/resources';
import type { KubeObject } from '@/lib/k8s/types';
import { Backoff, backoffMaxMs, systemClock, type ReflectorClock } from './backoff';
import { classifyFailure } from './failure-policy';
import { KubeTransportError, apiErrorFromStatus, type KubeApiError } from './kube-errors';
import type { Query } from './kube-request';
import { RequestCancel } from './request-cancel';
import { ObjectCache, cacheKey } from './object-cache';
import { listAllPages } from './paged-list';
import { projectObject } from './projections';
import { internStrings } from './projections-strings';
import { SourceStateTracker, type SourceError, type SourceState, type SourceStatus } from './source-state';
import { decodeWatchLine } from './watch-decoder';
import { endsInitialEvents, refusesWatchList, watchListQuery } from './watch-list';
import type { ReflectorDiagnostic, ReflectorEvent, ReflectorOptions } from './reflector-types';

/** What a failure leaves for the next attempt: when, and whether to reload the credentials first. */
interface Retry {
  delayMs: number;
  reloadCredentials: boolean;
}

/**
 * Keeps a cache of one resource in step with the API server with client-go's reflector semantics: paged
 * consistent LIST, WATCH with bookmarks and a randomized server timeout, inactivity and header timeouts,
 * capped jittered backoff with a hot-loop guard, Retry-After on 429, relist with synthetic events on 410, slow
 * retries on 401/403, and exactly one request in flight. `stop()` is final.
 */
export class Reflector {
  /** The cached projections, keyed `namespace/name`. */
  readonly cache = new ObjectCache();
  private readonly o: ReflectorOptions;
  private readonly clock: ReflectorClock;
  private backoffState: Backoff | undefined;
  private readonly tracker: SourceStateTracker;
  private readonly path: string;
  private started = false;
  private stopped = false;
  private live: AbortController | RequestCancel | undefined;
  private wake: (() => void) | undefined;
  private cancelTimer: (() => void) | undefined;
  private cancelHealthy: (() => void) | undefined;
  private rv = '';
  /** The state a WatchList is building, until the bookmark that ends its initial events. */
  private initial: Map<string, KubeObject> | undefined;
  private needList = true;
  private hasSynced = false;
  private watchesSinceList = 0;
  private authFailures = 0;
  private streamError: KubeApiError | undefined;
  private watchEvents = 0;
  /** Last proof that the cache is current: a completed LIST or any watch line (bookmarks included). */
  private freshAt = 0;
  private cancelStale: (() => void) | undefined;
  private readonly inactivityMs: number;
  private readonly staleAfterMs: number;
  // Made on first use: most of a fleet's thousands of watches never have a waiter or a diagnostic.
  private syncWaiters: Set<(synced: boolean) => void> | undefined;
  private diagnosticCounts: Map<string, number> | undefined;

  constructor(options: ReflectorOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock;
    this.tracker = new SourceStateTracker(
      this.clock,
      options.resource,
      options.namespace,
      options.onStatus && (() => this.statusChanged()),
    );
    // One string for every cluster's watch of the same collection, flat (a template's result is a rope of several).
    this.path = internStrings(collectionPath(options.resource, options.namespace));
    const bookmarkMs = options.bookmarkIntervalMs ?? 60_000;
    this.inactivityMs = options.inactivityTimeoutMs ?? 3 * bookmarkMs;
    this.staleAfterMs = options.staleAfterMs ?? 2 * bookmarkMs + backoffMaxMs(options.backoff);
  }

  /** Made at the first failure: most of a fleet's watches never fail, and a new backoff is the same as a reset one. */
  private get backoff(): Backoff {
    return (this.backoffState ??= new Backoff(this.clock, this.o.backoff));
  }

  /** Starts listing and watching. Calling it again, or after `stop()`, does nothing. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.run().catch((error: unknown) => {
      this.tracker.set(this.hasSynced ? 'stale' : 'pending', { reason: 'InternalError', message: String(error) });
    });
  }

  /** Aborts the request in flight and cancels timers; nothing restarts afterwards. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.live?.abort();
    this.cancelTimer?.();
    this.cancelHealthy?.();
    this.cancelStale?.();
    this.wake?.();
    for (const waiter of [...(this.syncWaiters ?? [])]) waiter(false);
  }

  /** Resolves true once the first LIST completed, false on stop or after `timeoutMs`. */
  waitForSync(timeoutMs?: number): Promise<boolean> {
    if (this.hasSynced) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      let cancel: (() => void) | undefined;
      const waiter = (synced: boolean) => {
        this.syncWaiters?.delete(waiter);
        cancel?.();
        resolve(synced);
      };
      (this.syncWaiters ??= new Set()).add(waiter);
      if (timeoutMs !== undefined) cancel = this.clock.setTimeout(() => waiter(false), timeoutMs);
    });
  }

  /** The source's health and counters as plain JSON. */
  state(): SourceState {
    return this.tracker.snapshot({ resourceVersion: this.rv, objects: this.cache.size });
  }

  /** The status alone, without the snapshot {@link state} builds (a fleet's metrics read tens of thousands). */
  get status(): SourceStatus {
    return this.tracker.status;
  }

  /** Object events delivered and relists done since the source started, without a snapshot. */
  counters(): { events: number; relists: number } {
    const { events, relists } = this.tracker.counters;
    return { events, relists };
  }

  /** The last resourceVersion seen. */
  get resourceVersion(): string {
    return this.rv;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let retry: Retry | undefined;
      try {
        if (this.needList && !this.tryWatchList()) await this.list();
        if (this.stopped) break;
        if (!(await this.watch())) await this.sleep(this.backoff.next());
      } catch (error) {
        if (this.stopped) break;
        // Decided at once, and only the decision waits: a refused source waits minutes between tries, and the error
        // (with the objects of its stack frames) would stay alive all that time.
        retry = this.recover(error);
      }
      if (retry) await this.retry(retry);
    }
  }

  /** Records a failure and decides when (and how) to try again. */
  private recover(error: unknown): Retry {
    const action = classifyFailure(error, this.hasSynced);
    if (action.relist) {
      if (!this.needList) this.tracker.counters.relists += 1;
      this.needList = true;
      this.rv = '';
    }
    if (this.hasSynced && (action.status === 'stale' || action.status === 'unreachable'))
      this.failedWhileSynced(action.status, action.error);
    else this.tracker.set(action.status, action.error);
    let delayMs: number;
    if (action.delay.kind === 'retry-after')
      delayMs = action.delay.ms + Math.round(this.clock.random() * this.backoff.initialMs);
    else if (action.delay.kind === 'slow') delayMs = this.backoff.slow();
    else if (action.delay.kind === 'auth')
      delayMs = ++this.authFailures <= 1 ? this.backoff.next() : this.backoff.slow();
    else delayMs = this.backoff.next();
    return { delayMs, reloadCredentials: action.reloadCredentials };
  }

  private async retry({ delayMs, reloadCredentials }: Retry): Promise<void> {
    await this.sleep(delayMs);
    // after the wait, so a kubeconfig rewritten meanwhile (token rotation) is used by the very next attempt
    if (reloadCredentials && !this.stopped) this.o.transport.reloadCredentials();
  }

  /**
   * A re-watch or relist of a synced source failed. The cache stays as good as its last proof of freshness, so the
   * source keeps its status (with the error and next retry shown) until that proof is older than `staleAfterMs`;
   * only then does it turn `stale` (or `unreachable`). Retries go on meanwhile.
   */
  private failedWhileSynced(status: 'stale' | 'unreachable', error: SourceError): void {
    this.tracker.noteError(error);
    if (this.tracker.status !== 'synced') {
      this.tracker.set(status, error);
      return;
    }
    const age = this.clock.now() - this.freshAt;
    if (age >= this.staleAfterMs) {
      this.tracker.set(status, error);
      return;
    }
    if (this.cancelStale) return;
    this.cancelStale = this.clock.setTimeout(() => {
      this.cancelStale = undefined;
      if (this.stopped || this.clock.now() - this.freshAt < this.staleAfterMs) return;
      if (this.tracker.status === 'synced') this.tracker.set(status, this.tracker.error ?? error);
    }, this.staleAfterMs - age);
  }

  /** The cache was just proven current. */
  private fresh(): void {
    this.freshAt = this.clock.now();
    this.cancelStale?.();
    this.cancelStale = undefined;
  }

  private async list(): Promise<void> {
    const controller = new AbortController();
    this.live = controller;
    let result;
    try {
      result = await listAllPages({
        transport: this.o.transport,
        path: this.path,
        query: { labelSelector: this.o.labelSelector, fieldSelector: this.o.fieldSelector },
        pageSize: this.o.pageSize ?? 500,
        controls: {
          signal: controller.signal,
          headerTimeoutMs: this.o.headerTimeoutMs,
          idleTimeoutMs: this.inactivityMs,
        },
        transform: (item) => this.projectOrKeep(item),
        onRestart: () => (this.tracker.counters.listRestarts += 1),
        onRequest: (query) => this.o.onRequest?.({ verb: 'list', query }),
      });
    } finally {
      if (this.live === controller) this.live = undefined;
    }
    if (this.stopped) return;
    this.synced(result.items, result.resourceVersion);
  }

  /** A WatchList is tried while the server is not known to refuse it (remembered per server, on the transport). */
  private tryWatchList(): boolean {
    return this.o.watchList !== false && this.o.transport.watchListSupport !== 'unsupported';
  }

  /** A complete state arrived (LIST pages, or a WatchList's initial events): replace the cache and report the diff. */
  private synced(items: KubeObject[], resourceVersion: string): void {
    const initial = !this.hasSynced;
    const diff = this.cache.replace(items);
    this.rv = resourceVersion;
    this.needList = false;
    this.hasSynced = true;
    this.watchesSinceList = 0;
    this.authFailures = 0;
    this.tracker.counters.lists += 1;
    this.fresh();
    this.tracker.synced();
    for (const object of diff.deleted) this.emit({ type: 'deleted', object, synthetic: true });
    for (const object of diff.added)
      this.emit(initial ? { type: 'added', object } : { type: 'added', object, synthetic: true });
    for (const { object } of diff.modified) this.emit({ type: 'modified', object, synthetic: true });
    this.emit({ type: 'synced' });
    for (const waiter of [...(this.syncWaiters ?? [])]) waiter(true);
  }

  /**
   * One WATCH, or while the cache needs a full state a WatchList: its initial events fill a new state that replaces
   * the cache at the bookmark ending them, and the same stream then goes on as a watch. Returns false when it was a
   * very short watch with no events (counts as a failure).
   */
  private async watch(): Promise<boolean> {
    const controller = new RequestCancel();
    this.live = controller;
    const { min, max } = this.o.watchTimeoutSeconds ?? { min: 300, max: 600 };
    const base: Query = {
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion: this.rv || undefined,
      timeoutSeconds: min + Math.floor(this.clock.random() * (max - min + 1)),
      labelSelector: this.o.labelSelector,
      fieldSelector: this.o.fieldSelector,
    };
    const listing = this.needList;
    this.initial = listing ? new Map() : undefined;
    const query = listing ? watchListQuery(base) : base;
    this.o.onRequest?.({ verb: 'watch', query });
    this.tracker.counters.watches += 1;
    if (this.watchesSinceList > 0) this.tracker.counters.reconnects += 1;
    this.watchesSinceList += 1;
    this.watchEvents = 0;
    this.streamError = undefined;
    const startedAt = this.clock.now();
    try {
      await this.o.transport.stream(this.path, query, {
        cancel: controller,
        headerTimeoutMs: this.o.headerTimeoutMs,
        idleTimeoutMs: this.inactivityMs,
        onOpen: () => this.watchOpened(),
        onLine: (line) => this.onLine(line),
      });
    } catch (error) {
      if (listing && refusesWatchList(error)) {
        // the server has no WatchList: list and watch from now on, for every resource of this server
        this.o.transport.watchListSupport = 'unsupported';
        return true;
      }
      // A watch that delivered lines and then went quiet is replaced by a normal re-watch (as when the server ends
      // it at timeoutSeconds); one that never delivered a byte is a failure.
      const quiet = error instanceof KubeTransportError && error.failure === 'idle-timeout' && this.watchEvents > 0;
      if (!quiet || this.needList) throw error;
    } finally {
      this.initial = undefined;
      this.cancelHealthy?.();
      this.cancelHealthy = undefined;
      if (this.live === controller) this.live = undefined;
    }
    const streamError = this.streamError;
    this.streamError = undefined;
    if (streamError) throw streamError;
    if (listing && this.needList && !this.stopped)
      throw new KubeTransportError('reset', 'the watch ended before its initial events did');
    const lasted = this.clock.now() - startedAt;
    if (lasted < (this.o.shortWatchMs ?? 1000) && this.watchEvents === 0 && !this.stopped) {
      const error = { reason: 'VeryShortWatch', message: `watch ended after ${lasted} ms with no events` };
      if (this.hasSynced) this.failedWhileSynced('stale', error);
      else this.tracker.set('pending', error);
      return false;
    }
    return true;
  }

  private watchOpened(): void {
    this.authFailures = 0;
    // "synced" only once the watch proves itself, so a server closing every watch at once does not flap it
    this.cancelHealthy = this.clock.setTimeout(() => {
      // fired: keeping its cancel (and the timer) for the hours the watch stays open would only hold memory
      this.cancelHealthy = undefined;
      this.markHealthy();
    }, this.o.shortWatchMs ?? 1000);
  }

  private markHealthy(): void {
    if (this.stopped || this.needList) return;
    // an open watch that has not delivered a byte proves nothing about a cache that is already too old
    if (this.clock.now() - this.freshAt >= this.staleAfterMs) return;
    if (this.tracker.status !== 'synced') this.tracker.set('synced');
    else this.tracker.noteError(undefined);
  }

  private onLine(line: string): boolean {
    if (this.stopped) return false;
    const decoded = decodeWatchLine(line);
    if (!decoded.ok) {
      this.tracker.counters.parseErrors += 1;
      this.diagnose({ kind: 'parse-error', resource: this.o.resource, message: decoded.message });
      return true;
    }
    const { type, object } = decoded.event;
    this.tracker.eventSeen();
    this.fresh();
    this.watchEvents += 1;
    if (type === 'ERROR') {
      this.streamError = apiErrorFromStatus(object);
      return false;
    }
    this.markHealthy();
    const rv = object.metadata.resourceVersion;
    if (this.initial) return this.initialEvent(type, object);
    if (type === 'BOOKMARK') {
      this.tracker.counters.bookmarks += 1;
      if (rv) this.rv = rv;
      return true;
    }
    const projected = this.project(object);
    if (type === 'DELETED') {
      this.cache.delete(cacheKey(projected));
      this.emit({ type: 'deleted', object: projected });
    } else {
      const previous = this.cache.upsert(projected);
      this.emit({ type: previous ? 'modified' : 'added', object: projected });
    }
    if (rv) this.rv = rv;
    return true;
  }

  /** An event of a WatchList before the bookmark that ends its initial events: it builds the new state. */
  private initialEvent(type: string, object: KubeObject): boolean {
    const initial = this.initial as Map<string, KubeObject>;
    if (type === 'BOOKMARK') {
      this.tracker.counters.bookmarks += 1;
      if (!endsInitialEvents(object)) return true;
      this.initial = undefined;
      this.o.transport.watchListSupport = 'supported';
      this.synced([...initial.values()], object.metadata.resourceVersion ?? '');
      return true;
    }
    if (type === 'DELETED') initial.delete(cacheKey(object));
    else initial.set(cacheKey(object), this.projectOrKeep(object));
    return true;
  }

  /**
   * The cached object when `object` is the same version of it, else its projection. A relist or a WatchList's
   * initial events repeat most of the cache after a reconnect; keeping the cached objects lets the repeats die
   * young instead of replacing a whole cache in the old generation (64,000 watches resyncing started a full
   * collection every ten seconds), and spares projecting them.
   */
  private projectOrKeep(object: KubeObject): KubeObject {
    const { uid, resourceVersion } = object.metadata;
    const cached = resourceVersion ? this.cache.get(cacheKey(object)) : undefined;
    if (cached && cached.metadata.resourceVersion === resourceVersion && cached.metadata.uid === uid) return cached;
    return this.project(object);
  }

  private project(object: KubeObject): KubeObject {
    try {
      return this.o.transform ? this.o.transform(object) : projectObject(this.o.resource, object);
    } catch (error) {
      this.tracker.counters.handlerErrors += 1;
      this.diagnose({
        kind: 'transform-error',
        resource: this.o.resource,
        message: (error as Error)?.message ?? String(error),
        error,
      });
      return object;
    }
  }

  private statusChanged(): void {
    if (this.stopped) return;
    try {
      this.o.onStatus?.();
    } catch (error) {
      this.handlerFailed(error);
    }
  }

  private handlerFailed(error: unknown): void {
    this.tracker.counters.handlerErrors += 1;
    this.diagnose({
      kind: 'handler-error',
      resource: this.o.resource,
      message: (error as Error)?.message ?? String(error),
      error,
    });
  }

  private emit(event: ReflectorEvent): void {
    if (event.type !== 'synced') this.tracker.counters.events += 1;
    const handler = this.o.handler;
    if (!handler) return;
    try {
      const result = handler(event);
      if (result && typeof (result as Promise<void>).then === 'function')
        (result as Promise<void>).then(undefined, (error: unknown) => this.handlerFailed(error));
    } catch (error) {
      this.handlerFailed(error);
    }
  }

  private diagnose(diagnostic: ReflectorDiagnostic): void {
    if (this.o.onDiagnostic) {
      try {
        this.o.onDiagnostic(diagnostic);
      } catch {
        // a failing logger must not take the reflector down
      }
      return;
    }
    this.diagnosticCounts ??= new Map();
    const seen = (this.diagnosticCounts.get(diagnostic.kind) ?? 0) + 1;
    this.diagnosticCounts.set(diagnostic.kind, seen);
    // log the 1st, 10th, 100th ... occurrence: a handler failing on every event must not flood the log
    if (Number.isInteger(Math.log10(seen))) {
      console.warn(`[watch ${this.path}] ${diagnostic.kind} (#${seen}): ${diagnostic.message}`);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.tracker.retryAt(ms);
    return new Promise((resolve) => {
      const done = () => {
        this.wake = undefined;
        this.cancelTimer?.();
        this.cancelTimer = undefined;
        this.tracker.retryAt(undefined);
        resolve();
      };
      this.wake = done;
      this.cancelTimer = this.clock.setTimeout(done, ms);
    });
  }
}
