import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeRequest, runEdge } from './edge';
import { NODE_REQUEST_HOOKS } from '@/instrumentation-node';
import { installRequestHooks } from './request-hooks';
import { rejectUnsupportedMethod } from './unsupported-methods';

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(port: number, method: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: '/api/clusters' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('unsupported HTTP methods', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    installRequestHooks(NODE_REQUEST_HOOKS);
    // Stands for Next's own server: what it would do with TRACE (build a Fetch Request) fails.
    server = http.createServer((req, res) => {
      try {
        new Request('http://localhost/', { method: req.method });
        res.end('routed');
      } catch {
        res.writeHead(500).end('Internal Server Error');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers TRACE 405 with Allow and the security headers before the server handles them', async () => {
    for (const method of ['TRACE']) {
      const answer = await send(port, method);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 'method_not_allowed', message: 'this method is not supported' },
      });
    }
    expect((await send(port, 'GET')).body).toBe('routed');
  });

  it('refuses other unknown methods at the edge, with the security headers', async () => {
    const edge = (method: string) => edgeRequest(new NextRequest('http://localhost/api/clusters', { method }), false);
    const response = await runEdge(edge('PROPFIND'), [rejectUnsupportedMethod]);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const ok = await runEdge(edge('GET'), [rejectUnsupportedMethod]);
    expect(ok.status).toBe(200);
  });
});
