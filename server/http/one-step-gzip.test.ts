import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsGzip, compressInOneStep } from './one-step-gzip';

// The compression step `next start` runs in front of every answer (next.config.ts `compress: true`).
const nextCompression = createRequire(import.meta.url)('next/dist/compiled/compression') as () => (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void;

const list = JSON.stringify({
  clusters: Array.from({ length: 500 }, (_, i) => ({
    id: `cluster-${i}`,
    sources: Array.from({ length: 25 }, (_, j) => ({ resource: `r${j}-${i}`, status: 'synced', since: `${i}.${j}` })),
  })),
});

let server: Server | undefined;
afterEach(() => server?.close());

/** Event-loop turns, each kept busy for `ms` (as a syncing fleet keeps them). */
function busyTurns(ms: number): { count: () => number; stop: () => void } {
  let turns = 0;
  let busy = true;
  const spin = () => {
    if (!busy) return;
    turns += 1;
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // a slice of sync work
    }
    setImmediate(spin);
  };
  setImmediate(spin);
  return { count: () => turns, stop: () => (busy = false) };
}

let finishedAfterTurns: number | undefined;

/** Serves `body` as Next does (headers flushed, then the body written and flushed), behind Next's compression. */
async function serve(body: string, status = 200, oneStep = true, turns?: () => number): Promise<number> {
  const compress = nextCompression();
  server = createServer((req, res) => {
    if (oneStep) compressInOneStep(req, res);
    const handledAt = turns?.() ?? 0;
    res.on('finish', () => (finishedAfterTurns = (turns?.() ?? 0) - handledAt));
    compress(req, res, () => {
      res.statusCode = status;
      res.setHeader('Content-Type', 'application/json');
      res.flushHeaders();
      res.write(Buffer.from(body));
      (res as unknown as { flush?: () => void }).flush?.();
      res.end();
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function get(port: number, path: string): Promise<{ headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request({ port, path, headers: { 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('compressInOneStep', () => {
  it('sends the fleet list gzip-compressed with its length, whole', async () => {
    const port = await serve(list);
    const { headers, body } = await get(port, '/api/clusters');
    expect(headers['content-encoding']).toBe('gzip');
    expect(headers.vary).toMatch(/accept-encoding/i);
    expect(Number(headers['content-length'])).toBe(body.length);
    expect(body.length).toBeLessThan(list.length / 4);
    expect(gunzipSync(body).toString()).toBe(list);
  });

  it('is sent in the turn it ends, where Next compressing in steps takes many turns of a busy event loop', async () => {
    const loop = busyTurns(20);
    try {
      let port = await serve(list, 200, false, loop.count);
      await get(port, '/api/clusters');
      const stepwise = finishedAfterTurns!;
      server!.close();
      port = await serve(list, 200, true, loop.count);
      await get(port, '/api/clusters');
      expect(finishedAfterTurns).toBeLessThanOrEqual(1);
      expect(stepwise).toBeGreaterThan(finishedAfterTurns! * 2);
    } finally {
      loop.stop();
    }
  });

  it('leaves other paths to Next, and sends error answers as they are', async () => {
    let port = await serve(list);
    const other = await get(port, '/api/clusters/a/health');
    expect(other.headers['transfer-encoding']).toBe('chunked');
    expect(gunzipSync(other.body).toString()).toBe(list);
    server!.close();
    port = await serve(list, 500);
    const failed = await get(port, '/api/clusters');
    expect(failed.headers['content-encoding']).toBeUndefined();
    expect(failed.body.toString()).toBe(list);
  });

  it('reads Accept-Encoding as HTTP does', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.8')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
