import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { constants as h2, type ClientHttp2Stream } from 'node:http2';
import type { Readable } from 'node:stream';
import { urlToHttpOptions } from 'node:url';
import type { AcquiredStream } from './h2-lease';

const { HTTP2_HEADER_STATUS } = h2;

/** A response's status, headers and body, whichever protocol carried it. */
export interface CallResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  body: Readable;
}

/** A request sent over HTTP/1.1 or as an HTTP/2 stream. */
export interface PendingCall {
  send(payload?: string): void;
  onError(listener: (error: Error) => void): void;
  /** Sees the response once its headers arrived; at most one listener. */
  onResponse(listener: (response: CallResponse) => void): void;
  /** The whole body of the response arrived (not cut by a reset). */
  complete(): boolean;
  /** Ends the request now (an HTTP/2 stream is reset, the rest of the session lives on). */
  destroy(): void;
  /** After a failure: when the connection under it was lost, its retry owes a place in the origin's reconnect window. */
  failed(): void;
  /** Bytes read so far from the connection when it is shared (HTTP/2), else undefined. */
  peerBytes(): number | undefined;
}

/** An HTTP/1.1 (or plain HTTP) request through `agent`. */
export function h1Call(
  url: URL,
  options: { method: string; headers: http.OutgoingHttpHeaders; agent?: http.Agent },
): PendingCall {
  const req = (url.protocol === 'http:' ? http.request : https.request)({ ...ownedTarget(url), ...options });
  let response: http.IncomingMessage | undefined;
  return {
    send: (payload) => req.end(payload),
    onError: (listener) => req.on('error', listener),
    onResponse: (listener) =>
      req.on('response', (res) => {
        response = res;
        listener({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: res });
      }),
    complete: () => response?.complete ?? false,
    destroy: () => req.destroy(),
    failed: () => undefined,
    peerBytes: () => undefined,
  };
}

/** A stream on an HTTP/2 session; `release` frees its slot in the pool once the stream has ended or closed. */
export function h2Call(
  lease: AcquiredStream,
  url: URL,
  method: string,
  headers: http.OutgoingHttpHeaders,
): PendingCall {
  let stream: ClientHttp2Stream;
  try {
    stream = lease.session.request(
      { ':method': method, ':path': ownString(url.pathname + url.search), ...headers },
      { endStream: false },
    );
  } catch (error) {
    lease.release();
    throw error;
  }
  lease.track(stream);
  return new H2Call(lease, stream);
}

/**
 * An HTTP/2 stream's call: methods on the prototype and two listeners of its own, as a fleet's open watches each hold
 * one for hours and every object of it is marked by each full collection.
 */
class H2Call implements PendingCall {
  private ended = false;
  private answered = false;
  private listener: ((response: CallResponse) => void) | undefined;

  constructor(
    private readonly lease: AcquiredStream,
    private readonly stream: ClientHttp2Stream,
  ) {
    // Both sides have ended the stream once its END_STREAM arrives: the slot is free for the caller's next request.
    // A session torn down also ends its streams' bodies, which then are cut, not complete.
    stream.on('end', () => {
      this.ended = !lease.session.destroyed;
      lease.release();
    });
    stream.on('close', lease.release);
    stream.on('response', (responseHeaders) => {
      this.answered = true;
      this.listener?.({
        status: Number(responseHeaders[HTTP2_HEADER_STATUS] ?? 0),
        statusText: '',
        headers: responseHeaders as http.IncomingHttpHeaders,
        body: stream,
      });
    });
  }

  send(payload?: string): void {
    this.stream.end(payload);
  }

  onError(listener: (error: Error) => void): void {
    this.stream.on('error', listener);
  }

  onResponse(listener: (response: CallResponse) => void): void {
    this.listener = listener;
  }

  complete(): boolean {
    return this.ended;
  }

  destroy(): void {
    // cancels before an answer are paced, so that a burst of them does not make the server close the session
    if (this.answered) this.stream.destroy();
    else this.lease.cancelUnanswered(this.stream);
  }

  failed(): void {
    this.lease.failed();
  }

  peerBytes(): number {
    return this.lease.bytesRead();
  }
}

/**
 * Where an HTTP/1.1 request goes, as node's options for `url` (`urlToHttpOptions`) without the URL's `href` and
 * with strings of their own: the socket of an open watch keeps its connect options, and with them the whole URL,
 * for hours.
 */
function ownedTarget(url: URL): http.RequestOptions {
  const { protocol, hostname, port, auth } = urlToHttpOptions(url);
  return {
    protocol,
    hostname: hostname && ownString(hostname),
    port,
    auth: auth && ownString(auth),
    path: ownString(url.pathname + url.search),
  };
}

/**
 * A copy of `text` that owns its characters. A URL's parts are slices of its `href`, and a string built from them
 * keeps the whole URL alive for as long as it lives: a watch's path lives for hours.
 */
export function ownString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
