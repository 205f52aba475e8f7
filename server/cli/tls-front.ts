/**
 * HTTPS in front of `next start` (which serves plain HTTP only): terminates TLS with a certificate and key from files
 * and relays each request to the dashboard on loopback, streaming both ways (the SSE streams stay open), with
 * `X-Forwarded-Proto: https` so the dashboard knows the browser came over TLS. The files are re-read periodically: a
 * renewed certificate (OpenShift's service CA rewrites the Secret in place) is served without a restart.
 */
import { isEndToEndHeader } from '@/lib/http/hop-by-hop';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readKeyPair } from '@/server/http/tls-files';

/** Where to listen, which files to serve with, and where the plain-HTTP dashboard listens. */
export interface TlsFrontOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  certFile: string;
  keyFile: string;
  upstreamPort: number;
  /** How often the certificate files are checked for a renewal. */
  reloadMs?: number;
  /** Where a renewal that cannot be used is reported (the previous certificate stays in service). */
  warn?: (message: string) => void;
}

/** A running front. */
export interface TlsFront {
  port: number;
  close(): Promise<void>;
}

function forwardedHeaders(headers: IncomingHttpHeaders, remote: string | undefined): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (isEndToEndHeader(name)) out[name] = value;
  // This hop is TLS whatever the client claimed; the client address is appended as proxies do.
  out['x-forwarded-proto'] = 'https';
  const prior = headers['x-forwarded-for'];
  out['x-forwarded-for'] = [prior, remote].filter(Boolean).join(', ');
  return out;
}

/** Starts the front; throws TlsFilesError (server/http/tls-files.ts) when the files are unusable, before listening. */
export async function startTlsFront(options: TlsFrontOptions): Promise<TlsFront> {
  let current = readKeyPair(options.certFile, options.keyFile);
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer(current, (req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: options.upstreamPort,
        method: req.method,
        path: req.url,
        agent,
        headers: forwardedHeaders(req.headers, req.socket.remoteAddress),
      },
      (answer) => {
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => isEndToEndHeader(name)));
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy(error);
        return;
      }
      res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`the dashboard is not answering yet: ${error.message}\n`);
    });
    // A browser that leaves (a closed SSE stream) ends the relayed request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const reload = setInterval(() => {
    try {
      const next = readKeyPair(options.certFile, options.keyFile);
      if (next.cert === current.cert && next.key === current.key) return;
      server.setSecureContext(next);
      current = next;
    } catch (error) {
      // Mid-rotation (certificate and key written one after the other) or broken: keep serving the last good pair.
      options.warn?.(`${(error as Error).message}; still serving the previous certificate`);
    }
  }, options.reloadMs ?? 60_000);
  reload.unref();
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(reload);
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
