/**
 * The metrics listener: a port of its own that serves GET /metrics to platform Prometheus and nothing else to anyone.
 * Prometheus proves who it is with the client certificate cluster monitoring gives it (mutual TLS, as OpenShift's
 * own operators are scraped); no token is stored anywhere. Serving certificate, key and client CA are re-read
 * periodically, so a renewed serving certificate or a rotated client signer is used without a restart.
 */
import 'server-only';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { clientCertificateIdentity } from '@/server/auth/client-certificate';
import type { ClientCaSource } from '@/server/auth/metrics-client-ca';
import { readKeyPair, type KeyPair } from '@/server/http/tls-files';

/** Where to listen, what to serve with, whom to admit, and what to serve. */
export interface MetricsListenerOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  certFile: string;
  keyFile: string;
  clientCa: ClientCaSource;
  /** The certificate names (CN) admitted. */
  allowed: readonly string[];
  metrics: () => Promise<{ contentType: string; body: string }>;
  /** How often the files and the client CA are read again. */
  reloadMs?: number;
  /** Where an unusable renewal or an unreadable client CA is reported (the previous one stays in service). */
  warn?: (message: string) => void;
}

/** A running listener. */
export interface MetricsListener {
  port: number;
  /** Reads the serving pair and the client CA again now (what the timer does). */
  reload(): Promise<void>;
  close(): Promise<void>;
}

function answer(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify({ error: { code, message } }));
}

/** Starts the listener; throws TlsFilesError when the serving files are unusable, before listening. */
export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  let pair: KeyPair = readKeyPair(options.certFile, options.keyFile);
  // Without a client CA nothing is admitted (Node would otherwise verify client certificates against public roots).
  let ca: string | undefined;
  let caProblem = 'not read yet';
  const readCa = async () => {
    try {
      const next = await options.clientCa();
      ca = next;
      caProblem = '';
    } catch (error) {
      caProblem = (error as Error).message;
      options.warn?.(
        `metrics listener: ${caProblem}; ${ca ? 'still trusting the previous client CA' : 'no scrape is admitted'}`,
      );
    }
  };
  await readCa();
  const context = () => ({ ...pair, ...(ca ? { ca } : {}) });
  const server: Server = createServer(
    { ...context(), requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' },
    (req, res) => {
      if (!ca) {
        answer(res, 503, 'client_ca_unavailable', `the client CA is not known, so no scrape is admitted: ${caProblem}`);
        return;
      }
      const identity = clientCertificateIdentity(req.socket as TLSSocket, options.allowed);
      if (!identity.ok) {
        answer(res, identity.status, identity.code, identity.message);
        return;
      }
      const path = new URL(req.url ?? '/', 'https://metrics.invalid').pathname;
      if (path !== '/metrics') {
        answer(res, 404, 'not_found', 'this port serves /metrics only');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        answer(res, 405, 'method_not_allowed', `${req.method} is not allowed on /metrics`, { allow: 'GET, HEAD' });
        return;
      }
      options.metrics().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (error: unknown) => answer(res, 500, 'internal', `cannot collect the metrics: ${(error as Error).message}`),
      );
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const reload = async () => {
    const before = context();
    try {
      pair = readKeyPair(options.certFile, options.keyFile);
    } catch (error) {
      // Mid-rotation (certificate and key written one after the other) or broken: keep serving the last good pair.
      options.warn?.(`metrics listener: ${(error as Error).message}; still serving the previous certificate`);
    }
    await readCa();
    const after = context();
    if (after.cert !== before.cert || after.key !== before.key || after.ca !== before.ca)
      server.setSecureContext(after);
  };
  let reloading: Promise<void> | undefined;
  const timer = setInterval(() => {
    reloading ??= reload().finally(() => (reloading = undefined));
  }, options.reloadMs ?? 60_000);
  timer.unref();
  return {
    port: (server.address() as AddressInfo).port,
    reload,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
