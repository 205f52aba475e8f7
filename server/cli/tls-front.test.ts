import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTlsFront, type TlsFront } from './tls-front';

/** HTTPS through the front to a plain-HTTP server on loopback, as `npm start --tls-cert/--tls-key` runs next. */
const dir = mkdtempSync(join(tmpdir(), 'tls-front-'));
const certFile = join(dir, 'tls.crt');
const keyFile = join(dir, 'tls.key');

function issue(name: string): { cert: string; key: string } {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(dir, `${name}.key`),
      '-out',
      join(dir, `${name}.crt`),
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      'subjectAltName=DNS:localhost',
    ],
    { stdio: 'pipe' },
  );
  return { cert: readFileSync(join(dir, `${name}.crt`), 'utf8'), key: readFileSync(join(dir, `${name}.key`), 'utf8') };
}

let first: { cert: string; key: string };
let upstream: Server;
let upstreamPort: number;
const seen: IncomingMessage[] = [];
const closedStreams: string[] = [];
let front: TlsFront | undefined;

beforeAll(async () => {
  first = issue('first');
  writeFileSync(certFile, first.cert);
  writeFileSync(keyFile, first.key);
  upstream = createServer((req, res) => {
    seen.push(req);
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      res.on('close', () => closedStreams.push(req.url!));
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      res.writeHead(201, { 'content-type': 'text/plain', 'x-upstream': 'yes' });
      res.end(`${req.method} ${req.url} ${body}`);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamPort = (upstream.address() as AddressInfo).port;
});

afterEach(async () => {
  await front?.close();
  front = undefined;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  peerCert: string;
}

function call(
  port: number,
  ca: string,
  path: string,
  method = 'GET',
  body?: string,
  headers: Record<string, string> = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, method, ca, servername: 'localhost', headers, agent: false };
    const req = request(options, (res) => {
      const peerCert = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN as string;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, peerCert }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('TLS front', () => {
  it('relays a request over HTTPS with its body, status and headers, and tells the dashboard it was TLS', async () => {
    front = await startTlsFront({ host: '127.0.0.1', port: 0, certFile, keyFile, upstreamPort });
    const answer = await call(front.port, first.cert, '/api/things?x=1', 'POST', 'hello', {
      'x-forwarded-proto': 'http',
      'x-forwarded-for': '10.0.0.9',
      'content-type': 'text/plain',
    });
    expect(answer).toMatchObject({ status: 201, body: 'POST /api/things?x=1 hello', peerCert: 'first' });
    expect(answer.headers['x-upstream']).toBe('yes');
    const relayed = seen.at(-1)!;
    expect(relayed.headers['x-forwarded-proto']).toBe('https');
    expect(relayed.headers['x-forwarded-for']).toBe('10.0.0.9, 127.0.0.1');
    expect(relayed.headers.host).toBe(`127.0.0.1:${front.port}`);
  });

  it('streams an event stream as it is written and ends it upstream when the browser leaves', async () => {
    front = await startTlsFront({ host: '127.0.0.1', port: 0, certFile, keyFile, upstreamPort });
    const firstChunk = await new Promise<string>((resolve, reject) => {
      const target = { host: '127.0.0.1', port: front!.port, path: '/stream' };
      const req = request({ ...target, ca: first.cert, servername: 'localhost', agent: false }, (res) => {
        res.setEncoding('utf8');
        res.once('data', (chunk: string) => {
          resolve(chunk);
          req.destroy();
        });
      });
      req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      req.end();
    });
    expect(firstChunk).toBe('data: one\n\n');
    await until(async () => (closedStreams.includes('/stream') ? true : undefined), 'the upstream stream to close');
  });

  it('answers 502 in words while the dashboard is not listening', async () => {
    const idle = createServer();
    await new Promise<void>((resolve) => idle.listen(0, '127.0.0.1', resolve));
    const port = (idle.address() as AddressInfo).port;
    await new Promise((resolve) => idle.close(resolve));
    front = await startTlsFront({ host: '127.0.0.1', port: 0, certFile, keyFile, upstreamPort: port });
    const answer = await call(front.port, first.cert, '/readyz');
    expect(answer.status).toBe(502);
    expect(answer.body).toMatch(/^the dashboard is not answering yet: connect ECONNREFUSED/);
  });

  it('refuses to start on a missing file or a certificate that does not match its key, naming the file', async () => {
    const absent = join(dir, 'absent.crt');
    const unreadable = expect.stringMatching(/^cannot read the TLS certificate .*absent\.crt/);
    await expect(
      startTlsFront({ host: '127.0.0.1', port: 0, certFile: absent, keyFile, upstreamPort }),
    ).rejects.toMatchObject({ name: 'TlsFilesError', message: unreadable });
    const other = issue('other');
    const otherKey = join(dir, 'other-only.key');
    writeFileSync(otherKey, other.key);
    await expect(
      startTlsFront({ host: '127.0.0.1', port: 0, certFile, keyFile: otherKey, upstreamPort }),
    ).rejects.toMatchObject({ name: 'TlsFilesError', message: expect.stringContaining('are not a usable pair') });
  });

  it('serves a renewed certificate without a restart, the last good one while the files are half-written', async () => {
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    front = await startTlsFront({ host: '127.0.0.1', port: 0, certFile, keyFile, upstreamPort, reloadMs: 20, warn });
    const renewed = issue('renewed');
    writeFileSync(certFile, renewed.cert);
    // The key still belongs to the first certificate: unusable, so the first pair stays in service.
    await until(async () => (warnings.length > 0 ? true : undefined), 'a warning about the half-written pair');
    expect(warnings[0]).toMatch(/are not a usable pair.*still serving the previous certificate$/);
    expect((await call(front.port, first.cert, '/x')).peerCert).toBe('first');
    writeFileSync(keyFile, renewed.key);
    const served = await until(async () => {
      const answer = await call(front!.port, `${first.cert}${renewed.cert}`, '/x');
      return answer.peerCert === 'renewed' ? answer : undefined;
    }, 'the renewed certificate');
    expect(served.status).toBe(201);
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
  });
});
