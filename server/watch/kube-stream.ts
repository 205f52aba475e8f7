import 'server-only';
import type { Readable } from 'node:stream';
import { BodyText } from './body-text';
import { KubeApiError, KubeTransportError, apiErrorFromResponse, toTransportError } from './kube-errors';
import { ownString, type CallResponse, type PendingCall } from './http-call';
import type { KubeRequester, Prepared, Query, RequestControls } from './kube-request';
import { LoopTimer } from './loop-timer';

/** Controls of a streamed (line-delimited) request such as a watch. */
export interface StreamControls extends RequestControls {
  /** Called once the server answered 2xx, before any line. */
  onOpen?: () => void;
  /** Called for every complete line (without the newline). Return `false` to end the stream from our side. */
  onLine: (line: string) => boolean | void;
}

/** How a stream ended without error. */
export interface StreamResult {
  endedBy: 'server' | 'client';
  bytes: number;
  lines: number;
}

/**
 * Reads the body of a 2xx answer chunk by chunk and gives the request's result once the body ended (or the reader
 * stopped it). One object with methods, as an open watch holds its reader for hours.
 */
export interface ChunkReader<T> {
  /** Sees one chunk; returns false to stop reading, or calls `fail` to reject instead. */
  chunk(chunk: Buffer, fail: (error: Error) => void): boolean;
  /** The request's result, once the body ended or `chunk` stopped it; a throw rejects the request. */
  result(): T;
}

const ERROR_BODY_LIMIT = 1024 * 1024;

/**
 * One request. `reader` sees each body chunk of a 2xx answer and may stop reading (then the request is destroyed);
 * the promise resolves with the reader's result. Times out on the response headers and on the body's silence; an
 * error answer rejects with the API error its body describes. Answered 401 where tokens come from a credential
 * source, it is sent once more with a fresh token (a 401 ends before any body chunk or `onOpen`, so nothing is
 * delivered twice).
 */
export function exchange<T>(
  requester: KubeRequester,
  path: string,
  query: Query,
  controls: RequestControls,
  reader: ChunkReader<T>,
  onOpen: (() => void) | undefined,
  payload: string | undefined,
): Promise<T> {
  const { signal, cancel } = controls;
  if (signal?.aborted || cancel?.aborted) return Promise.reject(new KubeTransportError('aborted', 'request aborted'));
  return new Promise<T>((resolve, reject) =>
    new Exchange(requester, path, query, controls, reader, onOpen, payload, resolve, reject).send(false),
  );
}

const cut = () => new KubeTransportError('reset', 'connection closed before the response ended');

/**
 * One request from its start to its end: one object with methods, as an open watch keeps it for hours (closures and
 * suspended async functions would be a dozen objects more, each marked by every full collection).
 */
class Exchange<T> {
  private settled = false;
  private timer: LoopTimer | undefined;
  private call: PendingCall | undefined;
  /** Gives up a wait for a stream slot or a connect once the request is over (let go once the request is open). */
  private waiting: AbortController | undefined;
  private requestPath = '';
  private readonly headerTimeoutMs: number;
  private readonly idleTimeoutMs: number;
  private waitedMs: number;
  private peerBytesAtOpen: number | undefined;
  private rejected = false;
  private readonly onAbort = () => this.finish(new KubeTransportError('aborted', 'request aborted'));
  private readonly onIdle = () =>
    this.finish(
      new KubeTransportError('idle-timeout', `no data from ${this.requestPath} for ${this.idleTimeoutMs} ms`),
    );
  private readonly onHeaderDeadline = () => this.headerDeadline();
  private readonly fail = (error: Error, keepSocket = false) => this.finish(error, keepSocket);

  constructor(
    private readonly requester: KubeRequester,
    /** What to send again after a 401; let go once the server answered otherwise. */
    private path: string | undefined,
    private query: Query | undefined,
    private readonly controls: RequestControls,
    private readonly reader: ChunkReader<T>,
    private readonly onOpen: (() => void) | undefined,
    private readonly payload: string | undefined,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.headerTimeoutMs = controls.headerTimeoutMs ?? requester.settings.headerTimeoutMs;
    this.idleTimeoutMs = controls.idleTimeoutMs ?? requester.settings.idleTimeoutMs;
    this.waitedMs = this.headerTimeoutMs;
  }

  /** Prepares and sends the request (`rejected`: with a fresh token, after a 401). */
  send(rejected: boolean): void {
    this.rejected = rejected;
    this.requester.prepare(this.path ?? '', this.query ?? {}, this.payload, rejected).then(
      (prepared) => this.open(prepared),
      (error: unknown) => this.finish(error as Error),
    );
  }

  /** Sends the prepared request. Only its path is kept: the URL objects and headers are let go once it is open. */
  private open(prepared: Prepared): void {
    const { signal, cancel } = this.controls;
    if (this.settled) return;
    if (signal?.aborted || cancel?.aborted) {
      this.finish(new KubeTransportError('aborted', 'request aborted'));
      return;
    }
    this.requestPath = ownString(prepared.url.pathname);
    signal?.addEventListener('abort', this.onAbort, { once: true });
    cancel?.hook(this.onAbort);
    this.timer = new LoopTimer(this.onHeaderDeadline, this.headerTimeoutMs);
    this.waiting = new AbortController();
    this.requester.open(prepared, this.payload === undefined ? 'GET' : 'POST', this.waiting.signal).then(
      (opened) => this.opened(opened),
      (error: unknown) => this.finish(toTransportError(error)),
    );
  }

  private opened(call: PendingCall): void {
    this.call = call;
    this.waiting = undefined;
    this.peerBytesAtOpen = call.peerBytes();
    if (this.settled) {
      call.destroy();
      return;
    }
    // Each listener acts for its own call only: after a 401 the first call's last events arrive during the second.
    call.onError((error) => {
      if (call === this.call) this.finish(toTransportError(error));
    });
    call.onResponse((res) => this.answered(call, res));
    call.send(this.payload);
  }

  /**
   * Over HTTP/2 a server still sending on the session is busy, not gone (a dead one is the session's liveness check's
   * to find): its answer gets one more period, as client-go sets no header deadline of its own. Giving up sooner
   * would only have a loaded server compute the same answer again.
   */
  private headerDeadline(): void {
    const bytes = this.call?.peerBytes();
    if (
      this.waitedMs === this.headerTimeoutMs &&
      bytes !== undefined &&
      this.peerBytesAtOpen !== undefined &&
      bytes > this.peerBytesAtOpen
    ) {
      this.waitedMs += this.headerTimeoutMs;
      this.timer = new LoopTimer(this.onHeaderDeadline, this.headerTimeoutMs);
      return;
    }
    this.finish(new KubeTransportError('header-timeout', `no response headers within ${this.waitedMs} ms`));
  }

  private answered(call: PendingCall, res: CallResponse): void {
    // a request given up before its answer (its cancel deferred) is drained, not delivered
    if (this.settled || call !== this.call) return;
    const code = res.status;
    // The time our own event loop was blocked does not count against the server. Once the answer began, one timer
    // watches the body's silence and each chunk pushes it back.
    this.timer?.cancel();
    this.timer = new LoopTimer(this.onIdle, this.idleTimeoutMs);
    try {
      this.requester.onResponseHeaders?.(res.headers);
    } catch {
      // an observer must not break the request
    }
    // No listener may capture `res`: a watch's listeners live for hours, and the response object would keep its
    // header strings with them. They keep the body and this exchange only.
    const { body } = res;
    body.on('error', (error) => {
      if (call === this.call) this.finish(toTransportError(error));
    });
    body.on('close', () => {
      if (call === this.call && !call.complete()) this.finish(cut());
    });
    if (code !== 401) {
      this.path = undefined;
      this.query = undefined;
    }
    if (code < 200 || code >= 300) {
      readError(body, code, res.statusText, res.headers['retry-after'], () => this.timer?.refresh(), this.fail);
      return;
    }
    try {
      this.onOpen?.();
    } catch (error) {
      this.finish(error as Error);
      return;
    }
    body.on('data', (chunk: Buffer) => this.data(chunk));
    body.on('end', () => {
      if (call === this.call) this.finish(call.complete() ? undefined : cut(), true);
    });
  }

  private data(chunk: Buffer): void {
    if (this.settled) return;
    this.timer?.refresh();
    let more: boolean;
    try {
      more = this.reader.chunk(chunk, this.fail);
    } catch (error) {
      this.finish(error as Error);
      return;
    }
    if (!more) this.finish();
  }

  /** Ends the request: with `error`, or with the reader's result (or sends it again, with a fresh token). */
  private finish(error?: Error, keepSocket = false): void {
    if (this.settled) return;
    this.timer?.cancel();
    this.timer = undefined;
    this.controls.signal?.removeEventListener('abort', this.onAbort);
    this.controls.cancel?.hook(undefined);
    this.waiting?.abort();
    this.waiting = undefined;
    const call = this.call;
    this.call = undefined;
    if (!keepSocket) call?.destroy();
    if (error instanceof KubeApiError && error.code === 401 && !this.rejected && this.requester.retriesUnauthorized) {
      this.waitedMs = this.headerTimeoutMs;
      this.peerBytesAtOpen = undefined;
      this.send(true);
      return;
    }
    this.settled = true;
    if (error) {
      this.reject(owed(error, call));
      return;
    }
    let result: T;
    try {
      result = this.reader.result();
    } catch (failure) {
      this.reject(failure as Error);
      return;
    }
    this.resolve(result);
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
  const text = new BodyText();
  body.on('data', (chunk: Buffer) => {
    onData();
    if (text.bytes < ERROR_BODY_LIMIT) text.push(chunk);
  });
  body.on('end', () => {
    finish(apiErrorFromResponse(code, statusText, text.text(), retryAfter), true);
  });
}

/**
 * A transport failure of a request whose connection was lost owes its retry a place in the origin's reconnect
 * window, so the thousands of watches of one lost session come back at the pace the server answers.
 */
function owed(error: Error, call: PendingCall | undefined): Error {
  // a request we ended ourselves reconnects nowhere: it must not take a place in the window
  if (call && error instanceof KubeTransportError && error.failure !== 'aborted') call.failed();
  return error;
}
