import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { UPLOAD_PATH } from '@/server/offline/upload-guard';
import { NODE_REQUEST_HOOKS } from '@/instrumentation-node';
import { installRequestHooks, type RequestHook } from './request-hooks';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const dir = mkdtempSync(join(tmpdir(), 'request-hooks-'));
/** What reached the stand-in for Next: method, path and the viewer header it carried. */
const reached: { method: string; url: string; viewer: string | undefined }[] = [];
let server: http.Server;
let port: number;

const holder = globalThis as unknown as { __updateHealthAuth?: unknown };
function authMode(mode: 'none' | 'openshift') {
  process.env.UPDATE_HEALTH_AUTH = mode;
  holder.__updateHealthAuth = undefined;
}

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  process.env.UPDATE_HEALTH_KUBECONFIG = join(dir, 'unused-kubeconfig.yaml');
  process.env.UPDATE_HEALTH_DATA_DIR = dir;
  authMode('none');
  // The stand-in for Next: a JSON answer saying which viewer header it saw.
  server = http.createServer((req, res) => {
    const viewer = req.headers[VIEWER_HEADER] as string | undefined;
    reached.push({ method: req.method!, url: req.url!, viewer });
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ viewer: viewer ?? null, padding: 'x'.repeat(4096) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterEach(() => {
  reached.length = 0;
  authMode('none');
  installRequestHooks(NODE_REQUEST_HOOKS);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the Node server request hooks, in order', () => {
  it('answers an unsupported method on the upload path with the method guard, before the upload guard authenticates', async () => {
    installRequestHooks(NODE_REQUEST_HOOKS);
    authMode('openshift');
    const answer = await send('TRACE', UPLOAD_PATH);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toContain('GET');
    expect(JSON.parse(answer.body.toString()).error.code).toBe('method_not_allowed');
    // The upload guard would have said 401 (it authenticates every method on its path).
    expect((await send('GET', UPLOAD_PATH)).status).toBe(401);
    expect(reached).toEqual([]);
  });

  it('sends a request on to Next once the upload guard has dropped a forged viewer header', async () => {
    installRequestHooks(NODE_REQUEST_HOOKS);
    const forged = encodeViewer({
      kind: 'user',
      user: { name: 'kube:admin', groups: ['system:masters'] },
      via: 'bearer',
    });
    const answer = await send('GET', '/api/clusters', { [VIEWER_HEADER]: forged });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString()).viewer).toBeNull();
    expect(reached).toEqual([{ method: 'GET', url: '/api/clusters', viewer: undefined }]);
  });

  it('sends an admitted upload-path request on to Next once the guard has authenticated it', async () => {
    installRequestHooks(NODE_REQUEST_HOOKS);
    const answer = await send('GET', UPLOAD_PATH, { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-security-policy']).toBeDefined();
    expect(reached).toEqual([{ method: 'GET', url: UPLOAD_PATH, viewer: encodeViewer({ kind: 'local' }) }]);
  });
});

describe('installRequestHooks', () => {
  it('runs the hooks in list order, waits for one that returns a promise, and stops at one that answers', async () => {
    const ran: string[] = [];
    const hook =
      (name: string, result: 'handled' | 'continue' = 'continue'): RequestHook =>
      (req, res) => {
        ran.push(name);
        if (result === 'handled') res.writeHead(204).end();
        return result;
      };
    const waits: RequestHook = (req) => {
      ran.push('waits');
      return new Promise((resolve) => setImmediate(() => resolve(req.url === '/stop' ? 'handled' : 'continue')));
    };
    installRequestHooks([hook('first'), waits, hook('last')]);
    expect((await send('GET', '/go')).status).toBe(200);
    expect(ran).toEqual(['first', 'waits', 'last']);
    expect(reached.map((r) => r.url)).toEqual(['/go']);

    ran.length = 0;
    installRequestHooks([hook('first', 'handled'), waits, hook('last')]);
    expect((await send('GET', '/go')).status).toBe(204);
    expect(ran).toEqual(['first']);
    expect(reached).toHaveLength(1);
  });

  it('is installed once: a second install replaces the list, and each hook runs once per request', async () => {
    let runs = 0;
    const counts: RequestHook = () => {
      runs += 1;
      return 'continue';
    };
    installRequestHooks([counts]);
    installRequestHooks([counts]);
    await send('GET', '/once');
    expect(runs).toBe(1);
    installRequestHooks([]);
    await send('GET', '/none');
    expect(runs).toBe(1);
    expect(reached.map((r) => r.url)).toEqual(['/once', '/none']);
  });

  it('answers 500 when a hook fails, and Next never sees the request', async () => {
    const error = console.error;
    console.error = () => undefined;
    try {
      installRequestHooks([
        () => {
          throw new Error('broken hook');
        },
      ]);
      expect((await send('GET', '/sync')).status).toBe(500);
      installRequestHooks([() => Promise.reject(new Error('broken hook'))]);
      const answer = await send('GET', '/async');
      expect(answer.status).toBe(500);
      expect(JSON.parse(answer.body.toString()).error.code).toBe('internal');
      installRequestHooks([
        () => Promise.resolve('continue'),
        () => {
          throw new Error('broken after a wait');
        },
      ]);
      expect((await send('GET', '/after-wait')).status).toBe(500);
    } finally {
      console.error = error;
    }
    expect(reached).toEqual([]);
  });
});
