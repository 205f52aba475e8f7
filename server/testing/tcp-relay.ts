import 'server-only';
import { createServer, connect, type Server, type Socket } from 'node:net';

/** Test-only: a TCP relay in front of a server, to make the network between a client and the server misbehave. */
export interface TcpRelay {
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Stops relaying in both directions while keeping every connection open (a black hole). */
  blackhole(): void;
  /** The next `count` connections are accepted and never relayed: their TLS handshake hangs. */
  silenceNext(count: number): void;
  /** New connections start relaying only after `ms` (a slow connect); 0 relays at once. */
  delayConnections(ms: number): void;
  close(): Promise<void>;
}

/** Starts a relay on a free local port that forwards every connection to `target`'s host and port. */
export async function startTcpRelay(target: URL): Promise<TcpRelay> {
  const pairs: [Socket, Socket?][] = [];
  let holed = false;
  let silent = 0;
  let delayMs = 0;
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    client.on('error', () => undefined);
    if (holed || silent > 0) {
      silent = Math.max(0, silent - 1);
      pairs.push([client]);
      return;
    }
    const pipe = () => {
      if (client.destroyed) return;
      const upstream = connect(Number(target.port), target.hostname);
      client.pipe(upstream).pipe(client);
      pairs.push([client, upstream]);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    };
    if (delayMs > 0) setTimeout(pipe, delayMs);
    else pipe();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as { port: number }).port}`,
    get accepted() {
      return accepted;
    },
    blackhole: () => {
      holed = true;
      for (const [client, upstream] of pairs) {
        if (!upstream) continue;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    silenceNext: (count) => {
      silent = count;
    },
    delayConnections: (ms) => {
      delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream?.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
