import 'server-only';
import type http from 'node:http';
import type https from 'node:https';
import { H2SessionPool, sharedSessionPool, type H2PoolOptions } from './h2-session-pool';
import type { H2Target } from './h2-connect';
import { h1Call, h2Call, type PendingCall } from './http-call';
import type { KubeCredentials } from './kube-credentials';
import type { RequestCancel } from './request-cancel';
import { TlsAgentCache } from './tls-agent-cache';

/** Query parameters; `undefined` values are left out. */
export type Query = Record<string, string | number | boolean | undefined>;

/** Per-request controls. */
export interface RequestControls {
  signal?: AbortSignal;
  /** Ends the request like `signal`, without a listener on an event target (for requests that stay open for hours). */
  cancel?: RequestCancel;
  headerTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/** What every request of a transport uses unless its controls say otherwise. */
export interface RequestSettings {
  headerTimeoutMs: number;
  idleTimeoutMs: number;
  maxBodyBytes: number;
  userAgent: string;
}

/** A request ready to send: URL, headers, and the way to the server. */
export interface Prepared {
  url: URL;
  headers: http.OutgoingHttpHeaders;
  /** The HTTP/1.1 agent: a proxy's, or the keep-alive pool (also when a server answers HTTP/2 with HTTP/1.1). */
  agent?: http.Agent;
  h2?: H2Target;
}

/**
 * Builds and starts the requests of one transport: URL, credentials and headers, and the connection that carries
 * them (a stream on the server's HTTP/2 session, or HTTP/1.1 through a keep-alive agent or a proxy).
 */
export class KubeRequester {
  private readonly agents = new TlsAgentCache();
  /** HTTP/2 sessions to the server; undefined when HTTP/2 is switched off (every request over HTTP/1.1). */
  private readonly sessions: H2SessionPool | undefined;
  /** False for the process's shared pool, which outlives any one transport (its idle sessions close on their own). */
  private readonly ownsSessions: boolean;

  /** `http2`: false for HTTP/1.1 only, pool options for a pool of its own, undefined for the shared pool. */
  constructor(
    private readonly credentials: KubeCredentials,
    readonly settings: RequestSettings,
    http2: false | H2PoolOptions | undefined,
    readonly onResponseHeaders: ((headers: http.IncomingHttpHeaders) => void) | undefined,
  ) {
    this.ownsSessions = typeof http2 === 'object';
    this.sessions =
      http2 === false ? undefined : typeof http2 === 'object' ? new H2SessionPool(http2) : sharedSessionPool();
  }

  /** A request answered 401 is sent once more, with a fresh token (tokens from a credential source). */
  get retriesUnauthorized(): boolean {
    return this.credentials.renewsTokens;
  }

  /** The request for `path` and `query`, with credentials applied (a fresh token after a 401: `rejected`). */
  async prepare(path: string, query: Query, payload: string | undefined, rejected = false): Promise<Prepared> {
    const { cluster, options } = await this.credentials.apply(rejected);
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
      return { url, headers, agent, h2: { url, identity, tls, connectTimeoutMs: this.settings.headerTimeoutMs } };
    }
    return { url, headers, agent };
  }

  /**
   * Starts one request: a stream on the server's HTTP/2 session, or an HTTP/1.1 request when the server does not
   * speak h2 (or a proxy is configured). The session may first have to be connected.
   */
  async open(prepared: Prepared, method: 'GET' | 'POST', signal: AbortSignal): Promise<PendingCall> {
    const { url, headers, h2 } = prepared;
    if (h2 && this.sessions) {
      const acquired = await this.sessions.acquire(h2, signal);
      if (acquired !== 'http1') return h2Call(acquired, url, method, headers);
      // ALPN just said HTTP/1.1: this request and the server's next ones take the keep-alive agent
      return h1Call(url, { method, headers, agent: prepared.agent });
    }
    return h1Call(url, { method, headers, agent: prepared.agent });
  }

  /** Releases pooled connections (HTTP/1.1 keep-alive sockets and idle HTTP/2 sessions). */
  close(): void {
    this.agents.close();
    if (this.ownsSessions) this.sessions?.close();
  }

  /** Every header a request carries, over either protocol: credentials, content negotiation and the body's type. */
  private requestHeaders(applied: https.RequestOptions, payload: string | undefined): http.OutgoingHttpHeaders {
    const headers: http.OutgoingHttpHeaders = {
      ...(applied.headers as http.OutgoingHttpHeaders),
      Accept: 'application/json',
      'User-Agent': this.settings.userAgent,
    };
    if (applied.auth) headers.Authorization = `Basic ${Buffer.from(applied.auth).toString('base64')}`;
    this.credentials.shareAuthorization(headers);
    if (payload !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = Buffer.byteLength(payload);
    }
    return headers;
  }
}
