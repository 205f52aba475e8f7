import 'server-only';
import http2, { type ClientHttp2Session } from 'node:http2';
import tls from 'node:tls';
import { KubeTransportError, toTransportError } from './kube-errors';

/** Timings of the HTTP/2 sessions a pool keeps. */
export interface H2PoolOptions {
  /** How often an open session is PINGed to catch a silent peer (black hole). Default 30 s. */
  pingIntervalMs?: number;
  /** A PING not acknowledged within this fails the session and every stream on it. Default 15 s. */
  pingTimeoutMs?: number;
  /** A session without streams for this long is closed. Default 60 s. */
  idleSessionMs?: number;
}

/** Where to connect: the server's origin and the TLS material of the kubeconfig (CA, client certificate). */
export interface H2Target {
  url: URL;
  /** Identifies the TLS material: a session is only shared by requests with the same identity. */
  identity: string;
  tls: tls.ConnectionOptions;
  /** Time allowed for TCP connect, TLS handshake and the server's SETTINGS. */
  connectTimeoutMs: number;
}

interface PooledSession {
  session: ClientHttp2Session;
  /** Streams opened and not yet closed. */
  active: number;
  /** No new stream may start (GOAWAY received, closing, or failed). */
  draining: boolean;
  idleTimer?: NodeJS.Timeout;
  pingTimer?: NodeJS.Timeout;
}

/** Receive windows of golang.org/x/net/http2's transport (client-go): 4 MiB per stream, 1 GiB per connection. */
const STREAM_WINDOW_BYTES = 4 << 20;
const CONNECTION_WINDOW_BYTES = 1 << 30;

/** The default stream limit before the server's SETTINGS say otherwise (RFC 9113 recommends at least 100). */
const DEFAULT_STREAM_LIMIT = 100;

/**
 * HTTP/2 sessions to one API server, as client-go keeps them: every request and watch is a stream on a shared
 * session, and another session opens only when the server's `maxConcurrentStreams` is reached. ALPN decides the
 * protocol on the first connection; a server that does not offer `h2` is remembered and `acquire` answers
 * `'http1'` from then on. A session that dies (GOAWAY, socket error, unanswered PING) fails the streams on it, and
 * the next request opens a fresh one.
 */
export class H2SessionPool {
  private readonly sessions = new Map<string, PooledSession[]>();
  private readonly connecting = new Map<string, Promise<PooledSession | 'http1'>>();
  private readonly http1 = new Set<string>();
  private readonly pingIntervalMs: number;
  private readonly pingTimeoutMs: number;
  private readonly idleSessionMs: number;
  private closed = false;

  constructor(options: H2PoolOptions = {}) {
    this.pingIntervalMs = options.pingIntervalMs ?? 30_000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 15_000;
    this.idleSessionMs = options.idleSessionMs ?? 60_000;
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
   * close); `'http1'` when the server does not speak HTTP/2.
   */
  async acquire(target: H2Target): Promise<{ session: ClientHttp2Session; release: () => void } | 'http1'> {
    if (this.closed) throw new KubeTransportError('aborted', 'transport closed');
    const key = `${target.url.origin}|${target.identity}`;
    for (;;) {
      if (this.http1.has(target.url.origin)) return 'http1';
      const free = (this.sessions.get(key) ?? []).find((pooled) => !pooled.draining && pooled.active < limitOf(pooled));
      if (free) return { session: free.session, release: this.hold(key, free) };
      let pending = this.connecting.get(key);
      if (!pending) {
        pending = this.connect(key, target).finally(() => this.connecting.delete(key));
        this.connecting.set(key, pending);
      }
      const connected = await pending;
      if (connected === 'http1') return 'http1';
      // another waiter may have filled the new session already: look again
    }
  }

  /** Closes every session; streams still open on them are failed. */
  close(): void {
    this.closed = true;
    for (const list of this.sessions.values()) for (const pooled of [...list]) pooled.session.destroy();
    this.sessions.clear();
  }

  private hold(key: string, pooled: PooledSession): () => void {
    pooled.active += 1;
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
    pooled.session.ref();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      pooled.active -= 1;
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
    const { url } = target;
    const socket = tls.connect({
      ...target.tls,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || 443),
      servername: target.tls.servername ?? (isIp(url.hostname) ? undefined : url.hostname),
      ALPNProtocols: ['h2', 'http/1.1'],
    });
    const protocol = await new Promise<string | false>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new KubeTransportError('header-timeout', `no TLS connection within ${target.connectTimeoutMs} ms`));
      }, target.connectTimeoutMs);
      socket.once('secureConnect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        resolve(socket.alpnProtocol ?? false);
      });
      const onError = (error: Error) => {
        clearTimeout(timer);
        reject(toTransportError(error));
      };
      socket.once('error', onError);
    });
    if (protocol !== 'h2') {
      // one wasted handshake per server: from now on this origin is HTTP/1.1 (the agent's keep-alive path)
      socket.destroy();
      this.http1.add(url.origin);
      return 'http1';
    }
    const session = http2.connect(url.origin, {
      createConnection: () => socket,
      settings: { enablePush: false, initialWindowSize: STREAM_WINDOW_BYTES },
    });
    // Go's transport windows: with HTTP/2's 64 KiB default, a busy event loop (late WINDOW_UPDATEs) would hold every
    // watch of the server behind the busiest one.
    session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
    const pooled: PooledSession = { session, active: 0, draining: false };
    // Until the server's SETTINGS arrive its stream limit is unknown; waiting keeps the first burst under it.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        session.destroy();
        reject(new KubeTransportError('header-timeout', `no HTTP/2 SETTINGS within ${target.connectTimeoutMs} ms`));
      }, target.connectTimeoutMs);
      session.once('remoteSettings', () => {
        clearTimeout(timer);
        session.off('error', onError);
        resolve();
      });
      const onError = (error: Error) => {
        clearTimeout(timer);
        reject(toTransportError(error));
      };
      session.once('error', onError);
    });
    const list = this.sessions.get(key) ?? [];
    list.push(pooled);
    this.sessions.set(key, list);
    const forget = () => this.retire(key, pooled);
    // no new streams after GOAWAY; those in flight end on their own (or fail when the server closes the session)
    session.on('goaway', () => {
      pooled.draining = true;
      if (pooled.active === 0) session.close();
    });
    session.on('error', () => forget());
    session.on('close', forget);
    pooled.pingTimer = setInterval(() => this.ping(key, pooled), this.pingIntervalMs);
    pooled.pingTimer.unref();
    return pooled;
  }

  /** A silent peer (black hole) never acknowledges: the session and its streams fail instead of hanging. */
  private ping(key: string, pooled: PooledSession): void {
    if (pooled.session.destroyed || pooled.active === 0) return;
    const timer = setTimeout(() => {
      this.retire(key, pooled, () =>
        pooled.session.destroy(
          new KubeTransportError('reset', `HTTP/2 PING not acknowledged within ${this.pingTimeoutMs} ms`),
        ),
      );
    }, this.pingTimeoutMs);
    timer.unref();
    try {
      pooled.session.ping(() => clearTimeout(timer));
    } catch {
      clearTimeout(timer); // session closing meanwhile: its close event retires it
    }
  }

  private retire(key: string, pooled: PooledSession, then?: () => void): void {
    pooled.draining = true;
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    if (pooled.pingTimer) clearInterval(pooled.pingTimer);
    const list = this.sessions.get(key);
    const at = list?.indexOf(pooled) ?? -1;
    if (list && at >= 0) {
      list.splice(at, 1);
      if (list.length === 0) this.sessions.delete(key);
    }
    then?.();
  }
}

function limitOf(pooled: PooledSession): number {
  const limit = pooled.session.remoteSettings?.maxConcurrentStreams;
  return typeof limit === 'number' && limit > 0 ? limit : DEFAULT_STREAM_LIMIT;
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
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
