import 'server-only';
import type http from 'node:http';
import { constants, gzip, gzipSync } from 'node:zlib';
import type { RequestHookResult } from './request-hooks';

/** Answers compressed here, in one step: the fleet list, megabytes while thousands of clusters sync. */
const ONE_STEP_PATHS: ReadonlySet<string> = new Set(['/api/clusters']);
/** Smaller answers go out as they are (the threshold Next's own compression uses: below it gzip saves nothing). */
const MIN_BYTES = 1024;
/**
 * Answers up to this size are compressed on the event loop, at gzip's fastest level: 1.3 MB of generated rows took
 * 1.6 ms (59.8 kB at the default level took 4.5 ms, 77.8 kB at this one). A thread-pool job's result waits for a
 * turn of the event loop, and while thousands of clusters sync a turn lasts 100 ms and more: measured at 3,500
 * clusters through a hub, the list's median answer took 201 ms gzipped in the pool against 89 ms sent plain.
 */
const SYNC_MAX_BYTES = 8 * 1024 * 1024;

type Callback = (error?: Error | null) => void;

/** True when an `Accept-Encoding` header takes gzip (not refused with `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    return coding === 'gzip' && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
  });
}

function toBuffer(chunk: unknown, encoding?: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
}

/**
 * Makes a `GET /api/clusters` answer go out gzip-compressed in one step. Next compresses a body in 16 KiB steps,
 * flushed one by one, each a thread-pool round trip that waits for its turn on the event loop: a 1 MB list took 15
 * turns more than the same list sent plain, and while a fleet syncs a turn is long (measured: 2.1 s against 0.5 s
 * with 100 ms turns). Here the answer is buffered, compressed at once (in the turn it ends, up to
 * {@link SYNC_MAX_BYTES}) and written with its length; Next's compression sees no `Accept-Encoding` and leaves it
 * alone. Errors, small and non-JSON answers go out unchanged.
 * A request hook (server/http/request-hooks.ts): it never answers, so the request always goes on.
 */
export function compressInOneStep(req: http.IncomingMessage, res: http.ServerResponse): RequestHookResult {
  if (req.method !== 'GET' || !ONE_STEP_PATHS.has((req.url ?? '').split('?')[0])) return 'continue';
  if (!acceptsGzip(req.headers['accept-encoding'])) return 'continue';
  delete req.headers['accept-encoding'];
  const chunks: Buffer[] = [];
  const original = { write: res.write, end: res.end, flushHeaders: res.flushHeaders, writeHead: res.writeHead };
  const restore = () => Object.assign(res, original);
  // Headers stay open until the body is complete (its encoding and length are decided then).
  res.flushHeaders = () => undefined;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    res.statusCode = status;
    const headers = rest.find((arg) => typeof arg === 'object' && arg !== null);
    if (Array.isArray(headers)) {
      for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    }
    return res;
  }) as typeof res.writeHead;
  res.write = ((chunk: unknown, encoding?: unknown, callback?: Callback) => {
    chunks.push(toBuffer(chunk, encoding));
    const done = typeof encoding === 'function' ? (encoding as Callback) : callback;
    if (done) process.nextTick(done);
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: Callback) => {
    const done = [chunk, encoding, callback].find((arg): arg is Callback => typeof arg === 'function');
    if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    restore();
    const body = Buffer.concat(chunks);
    const json = String(res.getHeader('content-type') ?? '').includes('json');
    if (res.statusCode !== 200 || body.length < MIN_BYTES || !json || res.headersSent) {
      res.end(body, done);
      return res;
    }
    const send = (error: Error | null, encoded: Buffer) => {
      if (error || res.headersSent) {
        res.end(body, done);
        return;
      }
      const vary = String(res.getHeader('vary') ?? '');
      if (!/accept-encoding/i.test(vary)) res.setHeader('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      res.setHeader('Content-Encoding', 'gzip');
      res.setHeader('Content-Length', encoded.length);
      res.removeHeader('Transfer-Encoding');
      res.end(encoded, done);
    };
    const level = constants.Z_BEST_SPEED;
    // In the pool, one output chunk is one round trip; on the loop, a chunk the size of the body is megabytes of
    // fresh pages per answer for the ~2 % of it the compressed list takes.
    if (body.length > SYNC_MAX_BYTES) gzip(body, { level, chunkSize: body.length }, send);
    else send(null, gzipSync(body, { level, chunkSize: 64 * 1024 }));
    return res;
  }) as typeof res.end;
  return 'continue';
}
