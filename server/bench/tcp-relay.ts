import { createServer, connect, type Server, type Socket } from 'node:net';

/** A TCP relay in front of one cluster that can black-hole every connection (stop relaying, keep sockets open). */
export async function relay(target: string): Promise<{ url: string; blackhole(): void; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const pairs = new Set<[Socket, Socket]>();
  let holed = false;
  const accepted = new Set<Socket>();
  const server: Server = createServer((client) => {
    accepted.add(client);
    client.on('close', () => accepted.delete(client));
    if (holed) return; // accepted, never answered
    const upstream = connect(Number(port), hostname);
    client.pipe(upstream).pipe(client);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `https://127.0.0.1:${address.port}`,
    blackhole: () => {
      holed = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        // Connections accepted while black-holed were never paired; server.close would wait for them forever.
        for (const client of accepted) client.destroy();
        server.close(() => resolve());
      }),
  };
}
