import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ServingCertificate } from './tls';

/** A listening HTTPS server of the simulator. */
export interface ListeningServer {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** `127.0.0.1:<port>` */
  address: string;
  /** Destroys open connections (watches included) and stops listening. */
  close(): Promise<void>;
}

/** Options of a simulator HTTPS server. */
export interface ListenOptions {
  /** TCP port (default: any free port). */
  port?: number;
  host?: '127.0.0.1';
}

/**
 * The one HTTPS server stack of the simulator: every API server and the hub's cluster-proxy listen through it, so
 * they speak the same protocols and close the same way.
 */
export async function listenHttps(
  certificate: ServingCertificate,
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: ListenOptions = {},
): Promise<ListeningServer> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer({ cert: certificate.cert, key: certificate.key }, handler);
  server.keepAliveTimeout = 30_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
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
    url: `https://${address}`,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
