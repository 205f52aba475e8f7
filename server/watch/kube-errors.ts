import 'server-only';
import type { Status } from '@/lib/k8s/types';

/** An answer from the API server that is an error: HTTP status ≥ 400 or an in-stream `ERROR` event. */
export class KubeApiError extends Error {
  /** HTTP status code (or `code` of the in-stream Status). */
  readonly code: number;
  /** Machine-readable reason (`Expired`, `Forbidden`, `TooManyRequests` ...), '' when the body had none. */
  readonly reason: string;
  /** Seconds the server asked us to wait (`Retry-After` header or `details.retryAfterSeconds`). */
  readonly retryAfterSeconds?: number;
  /** The decoded Status body when the server sent one. */
  readonly status?: Status;

  constructor(
    code: number,
    reason: string,
    message: string,
    options: { retryAfterSeconds?: number; status?: Status } = {},
  ) {
    super(message);
    this.name = 'KubeApiError';
    this.code = code;
    this.reason = reason;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.status = options.status;
  }

  /** 410 Gone / reason `Expired` or `Gone`: the resourceVersion or continue token is too old. */
  get isExpired(): boolean {
    return this.code === 410 || this.reason === 'Expired' || this.reason === 'Gone';
  }
}

/** How a request failed below HTTP. */
export type TransportFailure =
  | 'connect' // ECONNREFUSED, EHOSTUNREACH, ...
  | 'dns' // ENOTFOUND, EAI_AGAIN
  | 'reset' // ECONNRESET, premature close, socket hang up
  | 'tls' // certificate or handshake errors
  | 'header-timeout' // no response headers within the connect/header timeout
  | 'idle-timeout' // no body bytes within the inactivity timeout
  | 'aborted' // the caller aborted
  | 'protocol'; // unreadable body (e.g. a list that is not JSON)

/** A request that failed before or while reading the response, without an API status. */
export class KubeTransportError extends Error {
  readonly failure: TransportFailure;
  /** Node's errno code (`ECONNREFUSED` ...) when there was one. */
  readonly errno?: string;
  constructor(failure: TransportFailure, message: string, options: { errno?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KubeTransportError';
    this.failure = failure;
    this.errno = options.errno;
  }
}

/** The kubeconfig could not produce credentials (exec plugin failed, file missing, bad config). */
export class KubeCredentialsError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KubeCredentialsError';
  }
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'ETIMEDOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET']);

/** Maps a Node socket/TLS error to a typed transport error. */
export function toTransportError(error: unknown): KubeTransportError {
  if (error instanceof KubeTransportError) return error;
  const errno = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  let failure: TransportFailure = 'reset';
  if (errno && DNS_CODES.has(errno)) failure = 'dns';
  else if (errno && CONNECT_CODES.has(errno)) failure = 'connect';
  else if (errno && RESET_CODES.has(errno)) failure = 'reset';
  else if (
    errno &&
    (errno.startsWith('ERR_TLS') || errno.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO/.test(errno))
  ) {
    failure = 'tls';
  }
  return new KubeTransportError(failure, message, { errno, cause: error });
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

function isStatus(value: unknown): value is Status {
  const v = value as Partial<Status> | null;
  return typeof v === 'object' && v !== null && v.kind === 'Status' && typeof v.code === 'number';
}

/** Builds a KubeApiError from an HTTP status, its body text and its `Retry-After` header. */
export function apiErrorFromResponse(
  code: number,
  statusText: string,
  body: string,
  retryAfterHeader?: string | string[],
): KubeApiError {
  let status: Status | undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    if (isStatus(parsed)) status = parsed;
  } catch {
    // not a Status body (e.g. a proxy's HTML page); the status line is all we have
  }
  const retryAfterSeconds = parseRetryAfter(retryAfterHeader) ?? status?.details?.retryAfterSeconds;
  const reason = status?.reason ?? statusText.replace(/\s+/g, '');
  const message = status?.message || `${code} ${statusText}`.trim();
  return new KubeApiError(code, reason, message, { retryAfterSeconds, status });
}

/** Builds a KubeApiError from the Status object of an in-stream `ERROR` watch event. */
export function apiErrorFromStatus(object: unknown): KubeApiError {
  if (isStatus(object)) {
    return new KubeApiError(object.code, object.reason ?? '', object.message || `watch error ${object.code}`, {
      retryAfterSeconds: object.details?.retryAfterSeconds,
      status: object,
    });
  }
  return new KubeApiError(
    500,
    'InternalError',
    `watch ERROR event without a Status: ${JSON.stringify(object)?.slice(0, 200)}`,
  );
}
