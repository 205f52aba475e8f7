import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMetricsJson } from './http-client';
import { checkMetricsUrl, forbiddenAddressReason, guardedLookup } from './safe-url';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

function serve(
  handler: (url: string, res: import('node:http').ServerResponse) => void,
): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    handler(req.url ?? '', res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, seen })),
  );
}

const loopback = { allowLoopback: true };
const strict = { allowLoopback: false };

describe('metrics URL policy (SSRF)', () => {
  let internal: Awaited<ReturnType<typeof serve>>;
  let redirector: Awaited<ReturnType<typeof serve>>;
  let prometheus: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    internal = await serve((_url, res) => res.end('{"secret":true}'));
    prometheus = await serve((url, res) => {
      if (url.startsWith('/slow')) return; // never answers
      if (url.startsWith('/big')) return res.end(JSON.stringify({ data: 'x'.repeat(10_000) }));
      res.setHeader('Content-Type', 'application/json');
      res.end('{"status":"success","data":{"resultType":"vector","result":[]}}');
    });
    redirector = await serve((url, res) => {
      // a "Prometheus" that bounces to another host (localhost ≠ 127.0.0.1) or to the cloud metadata service
      const target = url.startsWith('/meta')
        ? 'http://169.254.169.254/latest/meta-data/'
        : `http://localhost:${internal.port}/api/v1/query`;
      res.writeHead(302, { Location: target }).end();
    });
  });
  afterAll(() => {
    for (const s of [internal, redirector, prometheus]) s.server.close();
  });

  it('refuses the cloud metadata service, link-local and file:// before any connection', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://100.100.100.200/',
      'http://0.0.0.0:9090/',
    ]) {
      const result = await getMetricsJson(url, { policy: loopback, token: 't' });
      expect(result, url).toMatchObject({ ok: false, kind: 'refused' });
    }
    for (const url of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://127.0.0.1:70/',
      'http://user:pw@127.0.0.1/',
      'not a url',
    ]) {
      expect(checkMetricsUrl(url, loopback).ok, url).toBe(false);
    }
    expect(await getMetricsJson('file:///etc/passwd', { policy: loopback })).toMatchObject({
      ok: false,
      kind: 'refused',
      message: 'scheme file: is not allowed (http or https only)',
    });
  });

  it('allows loopback only when configured', async () => {
    const url = `http://127.0.0.1:${prometheus.port}/api/v1/query?query=up`;
    expect(await getMetricsJson(url, { policy: strict })).toMatchObject({ ok: false, kind: 'refused' });
    expect(await getMetricsJson(`http://localhost:${prometheus.port}/`, { policy: strict })).toMatchObject({
      ok: false,
      kind: 'refused',
    });
    expect(await getMetricsJson(url, { policy: loopback, token: 'tok' })).toMatchObject({
      ok: true,
      status: 200,
      body: { status: 'success' },
    });
    expect(prometheus.seen.at(-1)?.headers.authorization).toBe('Bearer tok');
    expect(forbiddenAddressReason('::1', strict)).toMatch(/loopback/);
    expect(forbiddenAddressReason('10.0.0.5', strict)).toBeUndefined();
    expect(forbiddenAddressReason('2001:db8::1', strict)).toBeUndefined();
    for (const address of [
      '::ffff:a9fe:a9fe',
      '::ffff:127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      'fd00:ec2::254',
      '::',
      'ff02::1',
      'febf::1',
    ]) {
      expect(forbiddenAddressReason(address, strict), address).toBeDefined();
    }
  });

  it('checks the resolved address, not only the name', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup(strict)('localhost', {}, (e) => resolve(e)),
    );
    expect(error?.message).toMatch(/refused localhost: .* is loopback/);
  });

  it('never follows a redirect, so the token never reaches another host', async () => {
    const before = internal.seen.length;
    const result = await getMetricsJson(`http://127.0.0.1:${redirector.port}/api/v1/query?query=up`, {
      policy: loopback,
      token: 'secret-token',
    });
    expect(result).toMatchObject({
      ok: false,
      kind: 'redirect',
      status: 302,
      message: `redirect to localhost:${internal.port} not followed (redirects are refused)`,
    });
    expect(
      await getMetricsJson(`http://127.0.0.1:${redirector.port}/meta`, { policy: loopback, token: 'secret-token' }),
    ).toMatchObject({ ok: false, kind: 'redirect' });
    expect(internal.seen.length).toBe(before);
  });

  it('bounds time and size, and reports both as data', async () => {
    expect(
      await getMetricsJson(`http://127.0.0.1:${prometheus.port}/slow`, { policy: loopback, timeoutMs: 200 }),
    ).toMatchObject({ ok: false, kind: 'timeout' });
    expect(
      await getMetricsJson(`http://127.0.0.1:${prometheus.port}/big`, { policy: loopback, maxBytes: 1000 }),
    ).toMatchObject({ ok: false, kind: 'too-large' });
    expect(await getMetricsJson('http://127.0.0.1:1/', { policy: loopback, timeoutMs: 2000 })).toMatchObject({
      ok: false,
      kind: 'network',
    });
  });
});
