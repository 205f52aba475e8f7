/**
 * Must-gather uploads are refused before their body is read, and admitted ones reach the route with the body unread:
 * the guard runs on a real Node HTTP server, as on Next's, in front of the real upload route; and Next's own matcher
 * compiler shows proxy.ts (which buffers a body whole before it runs) never sees the upload path.
 */
import { NextRequest } from 'next/server';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as pageStaticInfo from 'next/dist/build/analysis/get-page-static-info';
import nextConfig from '@/next.config';
import { config as proxyConfig } from '@/proxy';
import { MUST_GATHER_MAX_UPLOAD_BYTES, mustGatherCreatedSchema } from '@/lib/api/must-gather-dto';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { analysisAdmission } from './analysis-admission';
import { directoryEntries, writeTestArchive } from './test-support';
import { NODE_REQUEST_HOOKS } from '@/instrumentation-node';
import { installRequestHooks } from '@/server/http/request-hooks';
import { UPLOAD_PATH } from './upload-guard';

/** Next's own compiler of a proxy `matcher` (what `next build` writes into the proxy manifest); not in its typings. */
const { getMiddlewareMatchers } = pageStaticInfo as unknown as {
  getMiddlewareMatchers(matcher: unknown, config: unknown): { regexp: string }[];
};
const dir = mkdtempSync(join(tmpdir(), 'upload-guard-'));
const archive = join(dir, 'mg.tar.gz');
/** What reached the stand-in for Next: the path, the viewer header, whether the body was read, what Node buffered. */
const reached: { url: string; viewer: string | undefined; didRead: boolean; buffered: number }[] = [];
let server: http.Server;
let base: URL;

const holder = globalThis as unknown as { __updateHealthAuth?: unknown };
function authMode(mode: 'none' | 'openshift') {
  process.env.UPDATE_HEALTH_AUTH = mode;
  holder.__updateHealthAuth = undefined;
}

beforeAll(async () => {
  process.env.UPDATE_HEALTH_KUBECONFIG = join(dir, 'unused-kubeconfig.yaml');
  process.env.UPDATE_HEALTH_DATA_DIR = dir;
  await writeTestArchive(archive, directoryEntries('server/fixtures/must-gather/azure-4.8.11', 'must-gather.local.1/'));
  installRequestHooks(NODE_REQUEST_HOOKS);
  const { POST } = await import('@/app/api/must-gather/route');
  // The stand-in for Next: hands the request to the upload route as Next does, its body a stream of the socket.
  server = http.createServer((req, res) => {
    const viewer = req.headers[VIEWER_HEADER] as string | undefined;
    reached.push({ url: req.url!, viewer, didRead: req.readableDidRead, buffered: req.readableLength });
    const headers = new Headers(req.headers as Record<string, string>);
    const request = new NextRequest(new URL(req.url!, base), {
      method: req.method,
      headers,
      body: req.method === 'POST' ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
      duplex: 'half',
    } as ConstructorParameters<typeof NextRequest>[1]);
    void POST(request).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});

afterEach(() => {
  reached.length = 0;
  authMode('none');
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Sent {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** Body bytes the client had written when the answer came. */
  written: number;
}

/**
 * POSTs to the upload path declaring `declared` bytes; writes `body` if given, else keeps writing 1 MiB chunks (as a
 * client uploading a big file does) until the answer arrives or the server closes the connection.
 */
function upload(declared: number, headers: Record<string, string>, body?: Buffer): Promise<Sent> {
  return new Promise((resolve, reject) => {
    let written = 0;
    let answered = false;
    const req = http.request(new URL(`${UPLOAD_PATH}?name=mg.tar.gz`, base), {
      method: 'POST',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(declared),
        origin: base.origin,
        ...headers,
      },
    });
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers, written }));
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body) {
      written = body.byteLength;
      req.end(body);
      return;
    }
    req.flushHeaders();
    const chunk = Buffer.alloc(1024 * 1024);
    const pump = () => {
      while (!answered && !req.destroyed && written < declared) {
        written += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
    };
    if (declared > 0) setImmediate(pump);
  });
}

describe('the upload guard', () => {
  it('refuses a 600 MiB upload with 413 at once, without reading its body or growing the server', async () => {
    const declared = 600 * 1024 * 1024;
    expect(declared).toBeGreaterThan(MUST_GATHER_MAX_UPLOAD_BYTES);
    const rssBefore = process.memoryUsage().rss;
    const answer = await upload(declared, {});
    const grown = process.memoryUsage().rss - rssBefore;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'too_large', message: 'upload larger than 512 MiB' } });
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['content-security-policy']).toBeDefined();
    expect(answer.written, 'the answer came long before the body was sent').toBeLessThan(declared / 4);
    expect(grown, `RSS grew ${Math.round(grown / 2 ** 20)} MiB`).toBeLessThan(64 * 1024 * 1024);
    expect(reached).toEqual([]);
  });

  it('refuses an unauthenticated upload with 401 before a byte of its body is sent', async () => {
    authMode('openshift');
    // The client sends the headers only; the answer cannot depend on a body that never came.
    const headersOnly = await new Promise<Sent>((resolve, reject) => {
      const req = http.request(new URL(`${UPLOAD_PATH}?name=mg.tar.gz`, base), {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(100 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text, headers: res.headers, written: 0 }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(headersOnly.status).toBe(401);
    expect(headersOnly.headers['www-authenticate']).toBe('Bearer realm="update-health"');
    expect(JSON.parse(headersOnly.body).error.code).toBe('unauthorized');
    expect(reached).toEqual([]);
  });

  it('refuses an upload over the analysis quota with 429 before reading it', async () => {
    const held = analysisAdmission().enter('local', false);
    expect(held.ok).toBe(true);
    try {
      const answer = await upload(200 * 1024 * 1024, {});
      expect(answer.status).toBe(429);
      expect(answer.headers['retry-after']).toBeDefined();
      expect(JSON.parse(answer.body).error.message).toContain('an analysis of yours is still running');
      expect(answer.written).toBeLessThan(50 * 1024 * 1024);
    } finally {
      if (held.ok) held.release();
    }
    expect(reached).toEqual([]);
  });

  it('admits an upload with the body unread, drops a forged viewer header, and the route streams it to analysis', async () => {
    const forged = encodeViewer({
      kind: 'user',
      user: { name: 'kube:admin', groups: ['system:masters'] },
      via: 'bearer',
    });
    const body = readFileSync(archive);
    const answer = await upload(body.byteLength, { [VIEWER_HEADER]: forged }, body);
    expect(answer.status, answer.body).toBe(201);
    expect(mustGatherCreatedSchema.parse(JSON.parse(answer.body)).url).toMatch(/^\/must-gather\//);
    expect(reached).toHaveLength(1);
    expect(reached[0].viewer).toBe(encodeViewer({ kind: 'local' }));
    // Nothing was read before the route; Node holds at most its stream buffer (then the socket waits).
    expect(reached[0].didRead).toBe(false);
    expect(reached[0].buffered).toBeLessThanOrEqual(128 * 1024);
  });

  it('checks the URL and authenticates every method on the path, as the edge does elsewhere', async () => {
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(new URL(path, base), (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body: text }));
          })
          .on('error', reject);
      });
    const malformed = await get(`${UPLOAD_PATH}?q=%E0%A4%A`);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.body)).toMatchObject({ error: { code: 'bad_request' } });
    authMode('openshift');
    expect((await get(UPLOAD_PATH)).status).toBe(401);
    expect(reached).toEqual([]);
  });

  it('is the only door to the upload route: proxy.ts does not match it, and matches everything else', () => {
    const matchers = getMiddlewareMatchers(proxyConfig.matcher, nextConfig).map((m) => new RegExp(m.regexp));
    const proxied = (path: string) => matchers.some((regexp) => regexp.test(path));
    expect(proxied(UPLOAD_PATH)).toBe(false);
    for (const path of [
      '/',
      '/api/must-gather/abc',
      '/api/must-gather/abc/incident',
      '/must-gather',
      '/api/clusters',
    ]) {
      expect(proxied(path), path).toBe(true);
    }
    expect(proxied('/api/must-gathers')).toBe(true);
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBeLessThanOrEqual(1024 * 1024);
  });
});
