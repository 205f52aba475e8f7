import 'server-only';
import type http from 'node:http';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeTransportError } from './kube-errors';
import type { H2PoolOptions } from './h2-session-pool';
import {
  KubeCredentials,
  endpointConfig,
  type ConfigSource,
  type CredentialSource,
  type ServerEndpoint,
} from './kube-credentials';
import { KubeRequester, type Query, type RequestControls } from './kube-request';
import { BodyText } from './body-text';
import { exchange, type ChunkReader, type StreamControls, type StreamResult } from './kube-stream';
import { LineReader } from './line-reader';
import { loadConfig, loadFileOnce } from './kubeconfig-loader';

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

/**
 * HTTP access to one API server: configuration and credentials come from a client-node `KubeConfig`
 * (CA, client certificates, bearer tokens, exec and refreshable auth providers, proxies), while requests are
 * made with node:http/https so they can stream, be aborted, and time out on headers and on body inactivity.
 */
export class KubeTransport {
  private readonly credentials: KubeCredentials;
  private readonly requester: KubeRequester;
  /** Whether the server serves WatchList (`sendInitialEvents`): learnt by the first reflector that tries it. */
  watchListSupport: 'unknown' | 'supported' | 'unsupported' = 'unknown';

  constructor(config: KubeConfig, options: KubeTransportOptions = {}, source: ConfigSource = { kind: 'object' }) {
    this.credentials = new KubeCredentials(config, source, options.credentials);
    const settings = {
      headerTimeoutMs: options.headerTimeoutMs ?? 30_000,
      idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
      maxBodyBytes: options.maxBodyBytes ?? 512 * 1024 * 1024,
      userAgent: options.userAgent ?? 'update-health/0.1',
    };
    this.requester = new KubeRequester(this.credentials, settings, options.http2, options.onResponseHeaders);
  }

  /** An API server reached with `options.credentials` (a hub's cluster-proxy URL and a managed-serviceaccount token). */
  static forEndpoint(endpoint: ServerEndpoint, options: KubeTransportOptions = {}): KubeTransport {
    return new KubeTransport(endpointConfig(endpoint), options);
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
    return this.credentials.server;
  }

  /**
   * Re-reads the kubeconfig file the transport was loaded from (a rotated token or certificate).
   * Returns false when there is nothing to reload or the file cannot be read now.
   */
  reloadCredentials(): boolean {
    return this.credentials.reload();
  }

  /** GETs `path` and decodes the JSON body. Throws KubeApiError, KubeTransportError or KubeCredentialsError. */
  async getJson<T>(path: string, query: Query = {}, controls: RequestControls = {}): Promise<T> {
    return this.json<T>(path, query, controls);
  }

  /** POSTs a JSON body (a TokenReview, a SubjectAccessReview) and decodes the JSON answer; errors as getJson. */
  async postJson<T>(path: string, body: unknown, controls: RequestControls = {}): Promise<T> {
    return this.json<T>(path, {}, controls, JSON.stringify(body));
  }

  /**
   * GETs `path` and hands every newline-delimited line to `controls.onLine` as it arrives. Resolves when the
   * server ends the body or `onLine` returns false; rejects on HTTP errors, transport errors and timeouts.
   */
  stream(path: string, query: Query, controls: StreamControls): Promise<StreamResult> {
    const reader = new LineReader(controls.onLine);
    return exchange(this.requester, path, query, controls, reader, controls.onOpen, undefined);
  }

  /** Releases pooled connections (HTTP/1.1 keep-alive sockets and idle HTTP/2 sessions). */
  close(): void {
    this.requester.close();
  }

  private json<T>(path: string, query: Query, controls: RequestControls, payload?: string): Promise<T> {
    return exchange(
      this.requester,
      path,
      query,
      controls,
      new JsonReader<T>(path, this.requester.settings.maxBodyBytes),
      undefined,
      payload,
    );
  }
}

/** A JSON answer: its text kept as it arrives (up to a limit), parsed once it ended. */
class JsonReader<T> implements ChunkReader<T> {
  private readonly body = new BodyText();

  constructor(
    private readonly path: string,
    private readonly maxBodyBytes: number,
  ) {}

  chunk(chunk: Buffer, fail: (error: Error) => void): boolean {
    if (this.body.bytes + chunk.length > this.maxBodyBytes) {
      fail(new KubeTransportError('protocol', `response body larger than ${this.maxBodyBytes} bytes`));
      return false;
    }
    this.body.push(chunk);
    return true;
  }

  result(): T {
    const text = this.body.text();
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new KubeTransportError('protocol', `response of ${this.path} is not JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}
