import http2, { type Http2Session } from 'node:http2';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Server as TlsServer } from 'node:tls';

/** OpenShift's kube-apiserver allows this many concurrent streams per HTTP/2 connection (upstream: 100-250). */
export const OPENSHIFT_MAX_CONCURRENT_STREAMS = 2000;

/** Options of an embedded API server's HTTPS listener. */
export interface ApiServerOptions {
  cert: string;
  key: string;
  /** Offer `h2` in ALPN (default true); HTTP/1.1 clients are served either way. */
  http2?: boolean;
  /** Streams one HTTP/2 connection may carry at once (default OpenShift's 2,000). */
  maxConcurrentStreams?: number;
}

/** Request handler shared by both protocols (HTTP/2 through Node's compatibility API). */
export type ApiRequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A listening-ready HTTPS server plus the bookkeeping tests and restarts need. */
export interface ApiHttpsServer {
  server: TlsServer;
  /** TCP connections accepted so far, HTTP/2 sessions among them, and TCP connections open now. */
  connections(): { tcp: number; h2Sessions: number; open: number };
  /** `goaway`: each HTTP/2 session gets a GOAWAY, then every connection is closed; `destroy`: cut them all. */
  dropConnections(how: 'goaway' | 'destroy'): void;
}

/**
 * The HTTPS listener of an embedded API server (and of anything else that answers like one, such as a hub's
 * cluster-proxy): HTTP/2 and HTTP/1.1 on one port chosen by ALPN, as kube-apiserver serves, or HTTP/1.1 only.
 * The handler sees the same request and response API either way.
 */
export function createApiServer(options: ApiServerOptions, handler: ApiRequestHandler): ApiHttpsServer {
  const { cert, key } = options;
  const server: TlsServer =
    options.http2 === false
      ? https.createServer({ cert, key }, handler)
      : http2.createSecureServer(
          {
            cert,
            key,
            allowHTTP1: true,
            settings: { maxConcurrentStreams: options.maxConcurrentStreams ?? OPENSHIFT_MAX_CONCURRENT_STREAMS },
          },
          // the compatibility API's request and response stand in for http's (same members the handlers use)
          handler as unknown as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
        );
  // idle keep-alive connections of HTTP/1.1 clients stay open between a watch's end and the next request
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = 30_000;
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  let tcp = 0;
  let h2Sessions = 0;
  server.on('connection', (socket: Socket) => {
    tcp += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('session', (session: Http2Session) => {
    h2Sessions += 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
    session.on('error', () => undefined);
  });
  return {
    server,
    connections: () => ({ tcp, h2Sessions, open: sockets.size }),
    dropConnections: (how) => {
      if (how === 'goaway') {
        for (const session of sessions) {
          if (session.destroyed) continue;
          session.goaway(http2.constants.NGHTTP2_NO_ERROR);
          // the GOAWAY frame is flushed before the socket goes
          setImmediate(() => session.destroy());
        }
        setImmediate(() => {
          for (const socket of sockets) socket.destroy();
        });
        return;
      }
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** A listening HTTPS server of the simulator. */
export interface ListeningServer extends ApiHttpsServer {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** `127.0.0.1:<port>` */
  address: string;
  /** Destroys open connections (watches included) and stops listening. */
  close(): Promise<void>;
}

/** Where and how a simulator HTTPS server listens. */
export interface ListenOptions {
  /** TCP port (default: any free port). */
  port?: number;
  host?: '127.0.0.1';
  /** Offer `h2` in ALPN (default true). */
  http2?: boolean;
  /** Streams one HTTP/2 connection may carry at once (default OpenShift's 2,000). */
  maxConcurrentStreams?: number;
}

/**
 * The one HTTPS server stack of the simulator: every API server and the hub's cluster-proxy listen through it, so
 * they speak the same protocols (h2 and HTTP/1.1 by ALPN) and close the same way.
 */
export async function listenHttps(
  certificate: { cert: string; key: string },
  handler: ApiRequestHandler,
  options: ListenOptions = {},
): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  const served = createApiServer(
    {
      cert: certificate.cert,
      key: certificate.key,
      http2: options.http2,
      maxConcurrentStreams: options.maxConcurrentStreams,
    },
    handler,
  );
  const { server } = served;
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = `${host}:${(server.address() as AddressInfo).port}`;
  return {
    ...served,
    url: `https://${address}`,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        served.dropConnections('destroy');
        server.close(() => resolve());
      }),
  };
}
