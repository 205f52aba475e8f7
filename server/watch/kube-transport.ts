import 'server-only';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { KubeConfig } from '@kubernetes/client-node';
import {
  KubeApiError,
  KubeCredentialsError,
  KubeTransportError,
  apiErrorFromResponse,
  toTransportError,
} from './kube-errors';
import { H2SessionPool, sharedSessionPool, type H2PoolOptions } from './h2-session-pool';
import type { H2Target } from './h2-connect';
import { h1Call, h2Call, ownString, type CallResponse, type PendingCall } from './http-call';
import { loadConfig, loadFileOnce } from './kubeconfig-loader';
import { TlsAgentCache } from './tls-agent-cache';
import { LoopTimer } from './loop-timer';
import { LineSplitter } from './line-splitter';

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Defaults for every request a transport makes. */
export interface KubeTransportOptions {
  /** Time from sending a request to its response headers (covers connect and TLS). Default 30 s. */
  headerTimeoutMs?: number;
  /** Longest silence while reading a body before the request is aborted. Default 60 s. */
  idleTimeoutMs?: number;
  /** Largest JSON body accepted (bytes). Default 512 MiB. */
  maxBodyBytes?: number;
  /** `User-Agent` header. */
  userAgent?: string;
  /** Sees the headers of every response (e.g. `Date`, to learn the cluster's clock). */
  onResponseHeaders?: (headers: http.IncomingHttpHeaders) => void;
  /**
   * HTTP/2 (default on, ALPN `h2`): every request and watch to the server is a stream on one shared connection.
   * `false` keeps to HTTP/1.1 (a connection per open watch); an object tunes the session PINGs and idle close.
   */
  http2?: false | H2PoolOptions;
  /**
   * The bearer token for each request, in place of the kubeconfig user's (an exec plugin, a watched token Secret).
   * After a 401 it is asked once more with `rejected: true` and the request is retried with the fresh token, so a
   * rotated token costs neither a relist nor an "unauthorized" status.
   */
  credentials?: CredentialSource;
}

/** Supplies a bearer token per request; `rejected` means the server just refused the last one. */
export type CredentialSource = (request: { rejected: boolean }) => Promise<{ token: string }>;

/** TLS and address of an API server whose credentials come from a {@link CredentialSource}. */
export interface ServerEndpoint {
  server: string;
  /** base64 PEM bundle (kubeconfig `certificate-authority-data`); system roots when absent. */
  caData?: string;
  insecureSkipTLSVerify?: boolean;
}

/** Per-request controls. */
export interface RequestControls {
  signal?: AbortSignal;
  /** Ends the request like `signal`, without a listener on an event target (for requests that stay open for hours). */
  cancel?: RequestCancel;
  headerTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** Controls of a streamed (line-delimited) request such as a watch. */
export interface StreamControls extends RequestControls {
  /** Called once the server answered 2xx, before any line. */
  onOpen?: () => void;
  /** Called for every complete line (without the newline). Return `false` to end the stream from our side. */
  onLine: (line: string) => boolean | void;
}

/**
 * Ends a request from the caller's side, as an aborted `AbortSignal` does. The request holds one callback on it where
 * a signal would hold an event listener and its map (about 400 bytes): a fleet's open watches each hold one for hours.
 */
export class RequestCancel {
  private onCancel: (() => void) | undefined;
  private cancelled = false;

  /** True once {@link abort} was called. */
  get aborted(): boolean {
    return this.cancelled;
  }

  /** Ends the request it controls; a request started later with it ends at once. */
  abort(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const onCancel = this.onCancel;
    this.onCancel = undefined;
    onCancel?.();
  }

  /** The transport's hook: what `abort` does while a request runs (undefined once it is over). */
  hook(onCancel: (() => void) | undefined): void {
    this.onCancel = onCancel;
  }
}

/** How a stream ended without error. */
export interface StreamResult {
  endedBy: 'server' | 'client';
  bytes: number;
  lines: number;
}

/** Where a transport's kubeconfig came from, so credentials can be reloaded when a token was rotated. */
type ConfigSource = { kind: 'file'; path: string; context?: string } | { kind: 'object' };

const ERROR_BODY_LIMIT = 1024 * 1024;

/**
 * HTTP access to one API server: configuration and credentials come from a client-node `KubeConfig`
 * (CA, client certificates, bearer tokens, exec and refreshable auth providers, proxies), while requests are
 * made with node:http/https so they can stream, be aborted, and time out on headers and on body inactivity.
 */
export class KubeTransport {
  private config: KubeConfig;
  private readonly source: ConfigSource;
  private readonly options: Required<Omit<KubeTransportOptions, 'onResponseHeaders' | 'http2' | 'credentials'>>;
  private readonly onResponseHeaders: KubeTransportOptions['onResponseHeaders'];
  private readonly credentials: CredentialSource | undefined;
  private readonly agents = new TlsAgentCache();
  /** Whether the server serves WatchList (`sendInitialEvents`): learnt by the first reflector that tries it. */
  watchListSupport: 'unknown' | 'supported' | 'unsupported' = 'unknown';
  /** HTTP/2 sessions to the server; undefined when HTTP/2 is switched off (every request over HTTP/1.1). */
  private readonly sessions: H2SessionPool | undefined;
  /** False for the process's shared pool, which outlives any one transport (its idle sessions close on their own). */
  private readonly ownsSessions: boolean;
  /** The last `Authorization` header sent, shared by the requests that send the same one. */
  private authorization: string | undefined;

  constructor(config: KubeConfig, options: KubeTransportOptions = {}, source: ConfigSource = { kind: 'object' }) {
    this.config = options.credentials ? withoutUserAuth(config) : config;
    this.source = source;
    this.options = {
      headerTimeoutMs: options.headerTimeoutMs ?? 30_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
      maxBodyBytes: options.maxBodyBytes ?? 512 * 1024 * 1024,
      userAgent: options.userAgent ?? 'update-health/0.1',
    };
    this.onResponseHeaders = options.onResponseHeaders;
    this.ownsSessions = typeof options.http2 === 'object';
    this.sessions =
      options.http2 === false
        ? undefined
        : typeof options.http2 === 'object'
          ? new H2SessionPool(options.http2)
          : sharedSessionPool();
    this.credentials = options.credentials;
  }

  /** An API server reached with `options.credentials` (a hub's cluster-proxy URL and a managed-serviceaccount token). */
  static forEndpoint(endpoint: ServerEndpoint, options: KubeTransportOptions = {}): KubeTransport {
    const cluster = {
      name: 'cluster',
      server: endpoint.server,
      caData: endpoint.caData,
      skipTLSVerify: endpoint.insecureSkipTLSVerify ?? false,
    };
    return new KubeTransport(
      loadConfig((kc) =>
        kc.loadFromOptions({
          clusters: [cluster],
          users: [{ name: 'user' }],
          contexts: [{ name: 'cluster', cluster: 'cluster', user: 'user' }],
          currentContext: 'cluster',
        }),
      ),
      options,
    );
  }

  /** Loads a kubeconfig file, optionally selecting a context as `kubectl --context` does. */
  static fromFile(path: string, options: KubeTransportOptions & { context?: string } = {}): KubeTransport {
    return new KubeTransport(
      loadConfig((kc) => loadFileOnce(kc, path), options.context),
      options,
      {
        kind: 'file',
        path,
        context: options.context,
      },
    );
  }

  /** Loads a kubeconfig from YAML or JSON text, optionally selecting a context. */
  static fromString(text: string, options: KubeTransportOptions & { context?: string } = {}): KubeTransport {
    return new KubeTransport(
      loadConfig((kc) => kc.loadFromString(text), options.context),
      options,
    );
  }

  /** The API server URL of the current context. */
  get server(): string {
    return this.config.getCurrentCluster()?.server ?? '';
  }

  /**
   * Re-reads the kubeconfig file the transport was loaded from (a rotated token or certificate).
   * Returns false when there is nothing to reload or the file cannot be read now.
   */
  reloadCredentials(): boolean {
    if (this.source.kind !== 'file') return false;
    const { path, context } = this.source;
    try {
      const config = loadConfig((kc) => loadFileOnce(kc, path), context);
      this.config = this.credentials ? withoutUserAuth(config) : config;
      return true;
    } catch {
      return false;
    }
  }

  /** GETs `path` and decodes the JSON body. Throws KubeApiError, KubeTransportError or KubeCredentialsError. */
  async getJson<T>(path: string, query: Query = {}, controls: RequestControls = {}): Promise<T> {
    return this.json<T>(path, query, controls);
  }

  /** POSTs a JSON body (a TokenReview, a SubjectAccessReview) and decodes the JSON answer; errors as getJson. */
  async postJson<T>(path: string, body: unknown, controls: RequestControls = {}): Promise<T> {
    return this.json<T>(path, {}, controls, JSON.stringify(body));
  }

  private async json<T>(path: string, query: Query, controls: RequestControls, payload?: string): Promise<T> {
    const chunks: Buffer[] = [];
    let size = 0;
    await this.exchange(
      path,
      query,
      controls,
      (chunk, fail) => {
        size += chunk.length;
        if (size > this.options.maxBodyBytes) {
          fail(new KubeTransportError('protocol', `response body larger than ${this.options.maxBodyBytes} bytes`));
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      undefined,
      payload,
    );
    const text = Buffer.concat(chunks).toString('utf8');
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new KubeTransportError('protocol', `response of ${path} is not JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /**
   * GETs `path` and hands every newline-delimited line to `controls.onLine` as it arrives. Resolves when the
   * server ends the body or `onLine` returns false; rejects on HTTP errors, transport errors and timeouts.
   */
  stream(path: string, query: Query, controls: StreamControls): Promise<StreamResult> {
    const splitter = new LineSplitter();
    let bytes = 0;
    let lines = 0;
    let endedBy: StreamResult['endedBy'] = 'server';
    const emit = (line: string): boolean => {
      lines += 1;
      return controls.onLine(line) !== false;
    };
    const done = (): StreamResult => {
      if (endedBy === 'server') {
        const rest = splitter.end();
        if (rest && !emit(rest)) endedBy = 'client';
      }
      return { endedBy, bytes, lines };
    };
    const onChunk = (chunk: Buffer): boolean => {
      bytes += chunk.length;
      if (splitter.push(chunk, emit)) return true;
      endedBy = 'client';
      return false;
    };
    return this.exchange(path, query, controls, onChunk, controls.onOpen).then(done);
  }

  /** Releases pooled connections (HTTP/1.1 keep-alive sockets and idle HTTP/2 sessions). */
  close(): void {
    this.agents.close();
    if (this.ownsSessions) this.sessions?.close();
  }

  private async prepare(path: string, query: Query, payload: string | undefined, rejected = false): Promise<Prepared> {
    const cluster = this.config.getCurrentCluster();
    if (!cluster) throw new KubeCredentialsError('kubeconfig has no current cluster');
    const options: https.RequestOptions = { headers: {} };
    try {
      await this.config.applyToHTTPSOptions(options);
    } catch (error) {
      throw new KubeCredentialsError(`kubeconfig credentials unavailable: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (this.credentials) {
      let token: string;
      try {
        ({ token } = await this.credentials({ rejected }));
      } catch (error) {
        throw new KubeCredentialsError(`credentials unavailable: ${(error as Error).message}`, { cause: error });
      }
      options.headers = { ...options.headers, Authorization: `Bearer ${token}` };
    }
    const url = new URL(cluster.server);
    url.pathname = url.pathname.replace(/\/+$/, '') + path;
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const headers = this.requestHeaders(options, payload);
    if (cluster.proxyUrl) return { url, headers, agent: options.agent as http.Agent | undefined };
    // The shared keep-alive agent, not client-node's options: those carry a fresh agent and CA buffer per call, and a
    // watch keeps its request's state for hours (at fleet scale, megabytes of agents nobody uses).
    const agent = this.agents.agentFor(url.protocol, options);
    if (url.protocol === 'https:' && this.sessions && !this.sessions.speaksHttp1(url)) {
      const { identity, tls } = this.agents.connectionOptions(url.protocol, options);
      return { url, headers, agent, h2: { url, identity, tls, connectTimeoutMs: this.options.headerTimeoutMs } };
    }
    return { url, headers, agent };
  }

  /** Every header a request carries, over either protocol: credentials, content negotiation and the body's type. */
  private requestHeaders(applied: https.RequestOptions, payload: string | undefined): http.OutgoingHttpHeaders {
    const headers: http.OutgoingHttpHeaders = {
      ...(applied.headers as http.OutgoingHttpHeaders),
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    if (applied.auth) headers.Authorization = `Basic ${Buffer.from(applied.auth).toString('base64')}`;
    // Every request's credentials are built afresh, and an HTTP/2 stream keeps its headers for its life: the open
    // watches of one server share one copy of an unchanged token (a service account's is a kilobyte).
    const authorization = headers.Authorization;
    if (authorization === this.authorization) headers.Authorization = this.authorization;
    else if (typeof authorization === 'string') this.authorization = authorization;
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    return headers;
  }

  /**
   * Starts one request: a stream on the server's HTTP/2 session, or an HTTP/1.1 request when the server does not
   * speak h2 (or a proxy is configured). The session may first have to be connected.
   */
  private async open(prepared: Prepared, method: 'GET' | 'POST', signal: AbortSignal): Promise<PendingCall> {
    const { url, headers, h2 } = prepared;
    if (h2 && this.sessions) {
      const acquired = await this.sessions.acquire(h2, signal);
      if (acquired !== 'http1') return h2Call(acquired, url, method, headers);
      // ALPN just said HTTP/1.1: this request and the server's next ones take the keep-alive agent
      return h1Call(url, { method, headers, agent: prepared.agent });
    }
    return h1Call(url, { method, headers, agent: prepared.agent });
  }

  /**
   * One request. `onChunk` sees each body chunk of a 2xx answer and returns false to stop reading (then the
   * request is destroyed and the promise resolves); it may call `fail` to reject instead.
   */
  private exchange(
    path: string,
    query: Query,
    controls: RequestControls,
    onChunk: (chunk: Buffer, fail: (error: Error) => void) => boolean,
    onOpen?: () => void,
    payload?: string,
  ): Promise<void> {
    // Promises chained, not async functions awaiting each other: an open watch sits under this chain for hours, and
    // every suspended async function would keep a frame and a promise of its own.
    const first = this.exchangeOnce(path, query, controls, onChunk, onOpen, payload, false);
    if (!this.credentials) return first;
    return first.catch((error: unknown) => {
      // A 401 ends before any body chunk or onOpen, so the retry cannot deliver anything twice.
      if (!(error instanceof KubeApiError) || error.code !== 401) throw error;
      return this.exchangeOnce(path, query, controls, onChunk, onOpen, payload, true);
    });
  }

  private async exchangeOnce(
    path: string,
    query: Query,
    controls: RequestControls,
    onChunk: (chunk: Buffer, fail: (error: Error) => void) => boolean,
    onOpen: (() => void) | undefined,
    payload: string | undefined,
    rejected: boolean,
  ): Promise<void> {
    const { signal, cancel } = controls;
    if (signal?.aborted || cancel?.aborted) throw new KubeTransportError('aborted', 'request aborted');
    // Let go once the request is open: a watch's closures live for hours, and the URL objects and headers are its
    // largest part (the stream keeps its own copy of the headers).
    let prepared: Prepared | undefined = await this.prepare(path, query, payload, rejected);
    const requestPath = ownString(prepared.url.pathname);
    if (signal?.aborted || cancel?.aborted) throw new KubeTransportError('aborted', 'request aborted');
    const headerTimeoutMs = controls.headerTimeoutMs ?? this.options.headerTimeoutMs;
    const idleTimeoutMs = controls.idleTimeoutMs ?? this.options.idleTimeoutMs;

    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let timer: LoopTimer | undefined;
      let call: PendingCall | undefined;
      // gives up a wait for a stream slot or a connect once the request is over (let go once the request is open)
      let waiting: AbortController | undefined = new AbortController();
      const onAbort = () => finish(new KubeTransportError('aborted', 'request aborted'));
      const finish = (error?: Error, keepSocket = false) => {
        if (settled) return;
        settled = true;
        timer?.cancel();
        signal?.removeEventListener('abort', onAbort);
        cancel?.hook(undefined);
        waiting?.abort();
        if (!keepSocket) call?.destroy();
        if (error) reject(staged(error, call));
        else resolve();
      };
      const idle = () => new KubeTransportError('idle-timeout', `no data from ${requestPath} for ${idleTimeoutMs} ms`);
      const onResponse = (res: CallResponse) => {
        // a request given up before its answer (its cancel deferred) is drained, not delivered
        if (settled) return;
        const code = res.status;
        // The time our own event loop was blocked does not count against the server. Once the answer began, one
        // timer watches the body's silence and each chunk pushes it back.
        timer?.cancel();
        timer = new LoopTimer(() => finish(idle()), idleTimeoutMs);
        try {
          this.onResponseHeaders?.(res.headers);
        } catch {
          // an observer must not break the request
        }
        // No listener may capture `res`: a watch's listeners live for hours, and the response object would keep its
        // header strings with them. They keep the body and the completion check only.
        const { body, complete } = res;
        body.on('error', (error) => finish(toTransportError(error)));
        const cut = () => new KubeTransportError('reset', 'connection closed before the response ended');
        body.on('close', () => {
          if (!complete()) finish(cut());
        });
        if (code < 200 || code >= 300) {
          readError(body, code, res.statusText, res.headers['retry-after'], () => timer?.refresh(), finish);
          return;
        }
        try {
          onOpen?.();
        } catch (error) {
          finish(error as Error);
          return;
        }
        body.on('data', (chunk: Buffer) => {
          if (settled) return;
          timer?.refresh();
          let more: boolean;
          try {
            more = onChunk(chunk, (error) => finish(error));
          } catch (error) {
            finish(error as Error);
            return;
          }
          if (!more) finish();
        });
        body.on('end', () => finish(complete() ? undefined : cut(), true));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      cancel?.hook(onAbort);
      // Over HTTP/2 a server still sending on the session is busy, not gone (a dead one is the session's liveness
      // check's to find): its answer gets one more period, as client-go sets no header deadline of its own. Giving up
      // sooner would only have a loaded server compute the same answer again.
      let peerBytesAtOpen: number | undefined;
      let waitedMs = headerTimeoutMs;
      const onHeaderDeadline = () => {
        const bytes = call?.peerBytes();
        if (
          waitedMs === headerTimeoutMs &&
          bytes !== undefined &&
          peerBytesAtOpen !== undefined &&
          bytes > peerBytesAtOpen
        ) {
          waitedMs += headerTimeoutMs;
          timer = new LoopTimer(onHeaderDeadline, headerTimeoutMs);
          return;
        }
        finish(new KubeTransportError('header-timeout', `no response headers within ${waitedMs} ms`));
      };
      timer = new LoopTimer(onHeaderDeadline, headerTimeoutMs);
      const opening = this.open(prepared!, payload === undefined ? 'GET' : 'POST', waiting.signal);
      prepared = undefined;
      opening.then(
        (opened) => {
          call = opened;
          waiting = undefined;
          peerBytesAtOpen = opened.peerBytes();
          if (settled) {
            opened.destroy();
            return;
          }
          opened.onError((error) => finish(toTransportError(error)));
          opened.onResponse(onResponse);
          opened.send(payload);
        },
        (error: unknown) => finish(toTransportError(error)),
      );
    });
  }
}

/** Reads an error answer's body (up to a limit) and ends the request with the API error it describes. */
function readError(
  body: Readable,
  code: number,
  statusText: string,
  retryAfter: string | undefined,
  onData: () => void,
  finish: (error: Error, keepSocket: boolean) => void,
): void {
  const parts: Buffer[] = [];
  let size = 0;
  body.on('data', (chunk: Buffer) => {
    onData();
    if (size < ERROR_BODY_LIMIT) parts.push(chunk);
    size += chunk.length;
  });
  body.on('end', () => {
    const text = Buffer.concat(parts).toString('utf8');
    finish(apiErrorFromResponse(code, statusText, text, retryAfter), true);
  });
}

/**
 * A transport failure of a request whose connection was lost carries the wait its pool staged for the reconnect, so
 * the thousands of watches of one lost session do not all come back in the same instant.
 */
function staged(error: Error, call: PendingCall | undefined): Error {
  // a request we ended ourselves reconnects nowhere: it must not take a place in the schedule
  if (!call || !(error instanceof KubeTransportError) || error.failure === 'aborted') return error;
  const reconnectDelayMs = call.reconnectDelayMs();
  if (reconnectDelayMs <= 0) return error;
  return new KubeTransportError(error.failure, error.message, { errno: error.errno, cause: error, reconnectDelayMs });
}

/** A request ready to send: URL, headers, and the way to the server. */
interface Prepared {
  url: URL;
  headers: http.OutgoingHttpHeaders;
  /** The HTTP/1.1 agent: a proxy's, or the keep-alive pool (also when a server answers HTTP/2 with HTTP/1.1). */
  agent?: http.Agent;
  h2?: H2Target;
}

/** The config with its user's token, exec plugin and auth provider removed (credentials come from elsewhere). */
function withoutUserAuth(kc: KubeConfig): KubeConfig {
  const user = kc.getCurrentUser();
  if (!user) return kc;
  const { exec: _exec, authProvider: _provider, token: _token, ...rest } = user;
  void _exec;
  void _provider;
  void _token;
  const slim = new KubeConfig();
  slim.loadFromOptions({
    clusters: kc.clusters,
    users: [rest],
    contexts: kc.contexts,
    currentContext: kc.getCurrentContext(),
  });
  return slim;
}
