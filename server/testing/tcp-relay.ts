import 'server-only';
import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server, to make the network between a client and the server misbehave (tests, and the
 * fleet bench's black-holed clusters).
 */
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
  // Pairs leave the set when they close: a relay in front of a long bench run sees many reconnects.
  const pairs = new Set<[Socket, Socket?]>();
  let holed = false;
  let silent = 0;
  let delayMs = 0;
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    client.on('error', () => undefined);
    if (holed || silent > 0) {
      silent = Math.max(0, silent - 1);
      const alone: [Socket] = [client];
      pairs.add(alone);
      client.on('close', () => pairs.delete(alone));
      return;
    }
    const pipe = () => {
      if (client.destroyed) return;
      const upstream = connect(Number(target.port), target.hostname);
      client.pipe(upstream).pipe(client);
      const pair: [Socket, Socket] = [client, upstream];
      pairs.add(pair);
      const drop = () => {
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('close', drop);
      upstream.on('error', drop).on('close', drop);
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
        for (const [client, upstream] of [...pairs]) {
          client.destroy();
          upstream?.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
