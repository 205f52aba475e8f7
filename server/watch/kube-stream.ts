import 'server-only';
import type { Readable } from 'node:stream';
import { BodyText } from './body-text';
import { KubeTransportError, apiErrorFromResponse, toTransportError } from './kube-errors';
import { ownString, type CallResponse, type PendingCall } from './http-call';
import type { KubeRequester, Prepared, Query, RequestControls } from './kube-request';
import { LineSplitter } from './line-splitter';
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

/** Sees each body chunk of a 2xx answer; returns false to stop reading, or calls `fail` to reject instead. */
export type ChunkReader = (chunk: Buffer, fail: (error: Error) => void) => boolean;

const ERROR_BODY_LIMIT = 1024 * 1024;

/**
 * The body of a streamed request split into lines for `controls.onLine`: `onChunk` reads the body, `done` hands
 * over the last line once the server ended it and tells how the stream ended.
 */
export function lineReader(controls: StreamControls): { onChunk: ChunkReader; done: () => StreamResult } {
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
  return { onChunk, done };
}

/**
 * One request, sent once (`rejected`: with a fresh token after a 401). `onChunk` sees each body chunk of a 2xx
 * answer and returns false to stop reading (then the request is destroyed and the promise resolves). Times out on
 * the response headers and on the body's silence; an error answer rejects with the API error its body describes.
 */
export async function exchange(
  requester: KubeRequester,
  path: string,
  query: Query,
  controls: RequestControls,
  onChunk: ChunkReader,
  onOpen: (() => void) | undefined,
  payload: string | undefined,
  rejected: boolean,
): Promise<void> {
  const { signal, cancel } = controls;
  if (signal?.aborted || cancel?.aborted) throw new KubeTransportError('aborted', 'request aborted');
  // Let go once the request is open: a watch's closures live for hours, and the URL objects and headers are its
  // largest part (the stream keeps its own copy of the headers).
  let prepared: Prepared | undefined = await requester.prepare(path, query, payload, rejected);
  const requestPath = ownString(prepared.url.pathname);
  if (signal?.aborted || cancel?.aborted) throw new KubeTransportError('aborted', 'request aborted');
  const headerTimeoutMs = controls.headerTimeoutMs ?? requester.settings.headerTimeoutMs;
  const idleTimeoutMs = controls.idleTimeoutMs ?? requester.settings.idleTimeoutMs;

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
      if (error) reject(owed(error, call));
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
        requester.onResponseHeaders?.(res.headers);
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
    const opening = requester.open(prepared!, payload === undefined ? 'GET' : 'POST', waiting.signal);
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
