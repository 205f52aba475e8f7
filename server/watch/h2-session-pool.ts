import 'server-only';
import { KubeTransportError, toTransportError } from './kube-errors';
import { watchLiveness, type LivenessOptions } from './h2-liveness';
import { Lease, type AcquiredStream, type PooledSession } from './h2-lease';
import { ReconnectWindow, isRelayed, type ReconnectWindowOptions } from './h2-reconnect-window';
import { connectH2, isDefinitiveConnectFailure, type H2Target } from './h2-connect';
import { StreamWaiters } from './h2-waiters';
import { TurnBudget } from './turn-budget';

/** Timings of the HTTP/2 sessions a pool keeps. */
export interface H2PoolOptions {
  /** A session is PINGed only after this long without receiving a byte (client-go's `ReadIdleTimeout`). Default 30 s. */
  readIdleTimeoutMs?: number;
  /** A PING not acknowledged within this (nor any byte received) fails the session and its streams. Default 15 s. */
  pingTimeoutMs?: number;
  /** A session without streams for this long is closed. Default 60 s. */
  idleSessionMs?: number;
  /**
   * After a session is lost with streams on it, their reconnects to the origin are paced by a window of requests in
   * flight that follows the server's answers (see {@link ReconnectWindow}), not all sent in the same instant.
   */
  reconnectWindow?: ReconnectWindowOptions;
}

/** The default stream limit before the server's SETTINGS say otherwise (RFC 9113 recommends at least 100). */
const DEFAULT_STREAM_LIMIT = 100;

/** Pause before connecting again after a connect failed for a reason that may pass (a timeout, a reset). */
const CONNECT_RETRY_MS = 100;

/**
 * HTTP/2 sessions to one API server, as client-go keeps them: every request and watch is a stream on a shared
 * session, and another session opens only when the server's `maxConcurrentStreams` is reached. ALPN decides the
 * protocol on the first connection; a server that does not offer `h2` is remembered and `acquire` answers
 * `'http1'` from then on. A session that dies (GOAWAY, socket error, unanswered PING) fails the streams on it, and
 * the next request opens a fresh one. Requests waiting for a slot are served first-come first-served; a connect
 * that fails for a reason that may pass (timeout, reset) is tried again for those still waiting.
 */
export class H2SessionPool {
  private readonly sessions = new Map<string, PooledSession[]>();
  private readonly waiters = new StreamWaiters<Lease | 'http1'>((key) => this.dispatch(key));
  /** Requests admitted per event-loop turn, over every origin: each opens its stream in the turn it is admitted. */
  private readonly turns = new TurnBudget();
  /** Keys with a connect in flight (or pausing before the next one). */
  private readonly connecting = new Set<string>();
  private readonly http1 = new Set<string>();
  /** Per key, the window its reconnects after a session loss wait in. */
  private readonly reconnects = new Map<string, ReconnectWindow>();
  private readonly liveness: LivenessOptions;
  private readonly idleSessionMs: number;
  private readonly reconnectWindow: ReconnectWindowOptions;
  private closed = false;

  constructor(options: H2PoolOptions = {}) {
    this.liveness = {
      readIdleTimeoutMs: options.readIdleTimeoutMs ?? 30_000,
      pingTimeoutMs: options.pingTimeoutMs ?? 15_000,
    };
    this.idleSessionMs = options.idleSessionMs ?? 60_000;
    this.reconnectWindow = options.reconnectWindow ?? {};
  }

  /** True once the server at this origin answered without `h2` in ALPN: requests go over HTTP/1.1. */
  speaksHttp1(url: URL): boolean {
    return this.http1.has(url.origin);
  }

  /** Sessions currently open to any server (tests and diagnostics). */
  get openSessions(): number {
    let count = 0;
    for (const list of this.sessions.values()) count += list.length;
    return count;
  }

  /**
   * A session with a free stream slot, counted as in use until the returned release is called (on the stream's
   * close); `'http1'` when the server does not speak HTTP/2. Waits its turn behind earlier requests when every
   * session is full; `signal` gives up waiting. While reconnects to the origin are owed after a session loss, the
   * request is one of them and first waits for a place in the origin's reconnect window. Before either, a request
   * waits for its event-loop turn when this one admitted its share (see {@link TurnBudget}): a reconnect's time in
   * the window, which paces the origin, starts only once it is admitted.
   */
  acquire(target: H2Target, signal?: AbortSignal): Promise<AcquiredStream | 'http1'> {
    if (this.closed) return Promise.reject(new KubeTransportError('aborted', 'transport closed'));
    if (signal?.aborted) return Promise.reject(new KubeTransportError('aborted', 'request aborted'));
    if (this.http1.has(target.url.origin)) return Promise.resolve('http1');
    if (this.turns.tryTake()) return this.admitted(target, signal);
    return this.turns.wait(signal).then(() => this.admitted(target, signal));
  }

  private admitted(target: H2Target, signal?: AbortSignal): Promise<Lease | 'http1'> {
    if (this.http1.has(target.url.origin)) return Promise.resolve('http1');
    const key = `${target.url.origin}|${target.identity}`;
    const window = this.reconnects.get(key);
    if (window?.claim())
      return window
        .enter(isRelayed(target.url), signal)
        .then((ticket) => this.reconnect(key, target, window, ticket, signal));
    return this.slot(key, target, signal);
  }

  /** A stream slot for the reconnect of `ticket`, which carries its place in the window until answered. */
  private reconnect(
    key: string,
    target: H2Target,
    window: ReconnectWindow,
    ticket: number,
    signal?: AbortSignal,
  ): Promise<Lease | 'http1'> {
    return this.slot(key, target, signal).then(
      (acquired) => {
        if (acquired === 'http1') window.leave(ticket, 'withdrawn');
        else acquired.carry(ticket);
        return acquired;
      },
      (error: unknown) => {
        // given up on our side (or the pool closed): that says nothing of the server
        const aborted = (error as Partial<KubeTransportError> | undefined)?.failure === 'aborted';
        window.leave(ticket, aborted ? 'withdrawn' : 'lost');
        throw error;
      },
    );
  }

  private slot(key: string, target: H2Target, signal?: AbortSignal): Promise<Lease | 'http1'> {
    if (this.closed) return Promise.reject(new KubeTransportError('aborted', 'transport closed'));
    if (signal?.aborted) return Promise.reject(new KubeTransportError('aborted', 'request aborted'));
    if (!this.waiters.has(key)) {
      const free = this.freeSession(key);
      if (free) return Promise.resolve(this.grant(key, free));
    }
    const waiting = this.waiters.wait(key, target, signal);
    this.dispatch(key);
    return waiting;
  }

  /** Closes every session; streams still open on them are failed, and requests waiting for one are refused. */
  close(): void {
    this.closed = true;
    this.turns.close(new KubeTransportError('aborted', 'transport closed'));
    for (const window of this.reconnects.values()) window.close(new KubeTransportError('aborted', 'transport closed'));
    this.waiters.failAll(new KubeTransportError('aborted', 'transport closed'));
    for (const list of this.sessions.values()) for (const pooled of [...list]) pooled.session.destroy();
    this.sessions.clear();
  }

  private freeSession(key: string): PooledSession | undefined {
    return (this.sessions.get(key) ?? []).find((pooled) => !pooled.draining && pooled.active < limitOf(pooled));
  }

  /** Hands free slots to the waiters in arrival order, and connects when some are left without one. */
  private dispatch(key: string): void {
    if (this.closed) return;
    const unserved = this.waiters.serve(key, () => {
      const free = this.freeSession(key);
      return free && this.grant(key, free);
    });
    if (unserved && !this.connecting.has(key)) this.startConnect(key, unserved);
  }

  private startConnect(key: string, target: H2Target): void {
    this.connecting.add(key);
    this.connect(key, target).then(
      (connected) => {
        this.connecting.delete(key);
        if (connected !== 'http1') return this.dispatch(key);
        this.waiters.settleAll(key, 'http1');
      },
      (error: unknown) => {
        const failure = toTransportError(error);
        if (isDefinitiveConnectFailure(failure)) {
          this.connecting.delete(key);
          this.waiters.failAll(failure, key);
          return;
        }
        // only this attempt failed: those still waiting (within their own deadlines) get the next one
        const pause = setTimeout(() => {
          this.connecting.delete(key);
          this.dispatch(key);
        }, CONNECT_RETRY_MS);
        pause.unref();
      },
    );
  }

  private grant(key: string, pooled: PooledSession): Lease {
    let window = this.reconnects.get(key);
    if (!window) {
      window = new ReconnectWindow(this.reconnectWindow);
      this.reconnects.set(key, window);
    }
    window.setLimit(limitOf(pooled));
    const lease = new Lease(pooled, window);
    lease.release = this.hold(key, pooled, lease);
    return lease;
  }

  private hold(key: string, pooled: PooledSession, lease: Lease): () => void {
    pooled.active += 1;
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
    pooled.session.ref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // a reconnect whose stream ends (or never started) without an answer was lost
      lease.settle('lost');
      pooled.active -= 1;
      // the freed slot goes to the longest waiter first
      if (!pooled.draining && !pooled.session.destroyed) this.dispatch(key);
      if (pooled.active > 0 || pooled.session.destroyed) return;
      if (pooled.draining) {
        pooled.session.close();
        return;
      }
      // an idle session must not keep the process alive, and is closed if it stays idle
      pooled.session.unref();
      pooled.idleTimer = setTimeout(() => this.retire(key, pooled, () => pooled.session.close()), this.idleSessionMs);
      pooled.idleTimer.unref();
    };
  }

  private async connect(key: string, target: H2Target): Promise<PooledSession | 'http1'> {
    const connected = await connectH2(target);
    if (connected === 'http1') {
      // one wasted handshake per server: from now on this origin is HTTP/1.1 (the agent's keep-alive path)
      this.http1.add(target.url.origin);
      return 'http1';
    }
    const { session, socket } = connected;
    const pooled: PooledSession = { session, socket, active: 0, draining: false };
    const list = this.sessions.get(key) ?? [];
    list.push(pooled);
    this.sessions.set(key, list);
    const forget = () => this.retire(key, pooled);
    // no new streams after GOAWAY; those in flight end on their own (or fail when the server closes the session)
    session.on('goaway', () => {
      pooled.draining = true;
      if (pooled.active === 0) session.close();
      this.dispatch(key);
    });
    session.on('error', () => forget());
    session.on('close', forget);
    pooled.stopLiveness = watchLiveness(
      session,
      socket,
      this.liveness,
      () => pooled.active > 0,
      (error) => this.retire(key, pooled, () => session.destroy(error)),
    );
    return pooled;
  }

  private retire(key: string, pooled: PooledSession, then?: () => void): void {
    pooled.draining = true;
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    pooled.stopLiveness?.();
    const list = this.sessions.get(key);
    const at = list?.indexOf(pooled) ?? -1;
    if (list && at >= 0) {
      list.splice(at, 1);
      if (list.length === 0) this.sessions.delete(key);
    }
    then?.();
    this.dispatch(key);
  }
}

function limitOf(pooled: PooledSession): number {
  const limit = pooled.session.remoteSettings?.maxConcurrentStreams;
  return typeof limit === 'number' && limit > 0 ? limit : DEFAULT_STREAM_LIMIT;
}

let shared: H2SessionPool | undefined;

/**
 * The process's one pool with default timings, which every transport without pool options uses: requests to the same
 * origin with the same TLS material share sessions across clusters, as the clusters a hub's cluster-proxy fronts do
 * (a pool per transport would hold one connection per cluster to that single endpoint).
 */
export function sharedSessionPool(): H2SessionPool {
  shared ??= new H2SessionPool();
  return shared;
}
