import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import type { ServedCluster } from './api-server';
import type { Identity } from './auth';

/** Test and bench support: a raw watch/stream reader over HTTPS that splits the body into JSON lines. */
export interface StreamReader {
  status: Promise<number>;
  headers: Promise<Record<string, string | string[] | undefined>>;
  /** Parsed lines so far. */
  lines: unknown[];
  /** Resolves when the response ends (or errors: the error's code, e.g. ECONNRESET). */
  ended: Promise<{ error?: string }>;
  /** Waits until `predicate` holds for the received lines, or rejects after `timeoutMs`. */
  waitFor(predicate: (lines: unknown[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Bytes received so far. */
  bytes(): number;
  abort(): void;
}

/** Opens a GET stream (e.g. `?watch=true`) with an identity's token. */
export function openStream(
  served: ServedCluster,
  path: string,
  options: { identity?: Identity; parse?: boolean } = {},
): StreamReader {
  const lines: unknown[] = [];
  let bytes = 0;
  let buffer = '';
  let resolveStatus!: (code: number) => void;
  let resolveHeaders!: (headers: Record<string, string | string[] | undefined>) => void;
  let resolveEnded!: (value: { error?: string }) => void;
  const status = new Promise<number>((resolve) => (resolveStatus = resolve));
  const headers = new Promise<Record<string, string | string[] | undefined>>((resolve) => (resolveHeaders = resolve));
  const ended = new Promise<{ error?: string }>((resolve) => (resolveEnded = resolve));
  const parse = options.parse !== false;
  const req: ClientRequest = request(
    `${served.url}${path}`,
    {
      headers: { Authorization: `Bearer ${served.tokens[options.identity ?? 'admin']}` },
      ca: Buffer.from(served.caData, 'base64').toString(),
      agent: false,
    },
    (res) => {
      resolveStatus(res.statusCode ?? 0);
      resolveHeaders(res.headers);
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        bytes += Buffer.byteLength(chunk);
        if (!parse) return;
        buffer += chunk;
        let index: number;
        while ((index = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, index);
          buffer = buffer.slice(index + 1);
          if (line.trim()) lines.push(JSON.parse(line));
        }
      });
      res.on('end', () => {
        if (parse && buffer.trim()) lines.push(JSON.parse(buffer));
        resolveEnded({});
      });
      res.on('error', (error: NodeJS.ErrnoException) => resolveEnded({ error: error.code ?? error.message }));
      res.on('aborted', () => resolveEnded({ error: 'aborted' }));
    },
  );
  req.on('error', (error: NodeJS.ErrnoException) => {
    resolveStatus(0);
    resolveEnded({ error: error.code ?? error.message });
  });
  req.end();
  return {
    status,
    headers,
    lines,
    ended,
    bytes: () => bytes,
    abort: () => req.destroy(),
    waitFor: async (predicate, timeoutMs = 5_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(lines)) {
        if (Date.now() > deadline) throw new Error(`timed out waiting; got ${JSON.stringify(lines).slice(0, 500)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
