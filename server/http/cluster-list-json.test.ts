import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterListDto } from '@/lib/api/dto';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { makeClusterVersion, makeContext, makeSnapshot } from '@/lib/health/testing/builders';
import { PublishedHealth } from '@/server/engine/published-health';
import { NODE_REQUEST_HOOKS } from '@/instrumentation-node';
import { clusterListAnswer, clusterListJson } from './cluster-list-json';

const NOW = '2026-01-01T00:00:00Z';

function assessed(id: string, desired: string, installed = desired) {
  const cv = makeClusterVersion({
    desired,
    history: [
      { version: desired, state: desired === installed ? 'Completed' : 'Partial' },
      ...(desired === installed ? [] : [{ version: installed, state: 'Completed' as const }]),
    ],
  });
  const snapshot = makeSnapshot({ clusterversions: [cv] });
  return assessCluster({ id, name: id, snapshot, context: makeContext(NOW), sources: [] });
}

type Waiting = NonNullable<ClusterListDto['membership']>['waiting'];

function listOf(members: PublishedHealth[], waiting: Waiting = []): ClusterListDto {
  const clusters = members.map((member) => member.summary());
  return {
    clusters,
    membership: { discovered: clusters.length, connected: clusters.length, synced: 0, waiting, sources: [] },
  };
}

describe('the fleet list as JSON text', () => {
  it('is the text JSON.stringify gives, before and after rows change', () => {
    const members = ['a', 'b', 'c'].map((id) => new PublishedHealth(id, assessed(id, '4.14.1').health));
    const first = listOf(members);
    expect(clusterListJson(first)).toBe(JSON.stringify(first));
    // served again from the kept texts, then with one row changed
    expect(clusterListJson(listOf(members))).toBe(JSON.stringify(first));
    members[1].update(assessed('b', '4.15.0', '4.14.1'), Date.parse(NOW), false);
    const second = listOf(members, [
      { id: 'd', name: 'd', discoveredBy: { kind: 'hub', name: 'hub' }, reason: 'connecting', since: NOW },
    ]);
    expect(clusterListJson(second)).toBe(JSON.stringify(second));
    expect(clusterListJson(second)).not.toBe(JSON.stringify(first));
    expect(JSON.parse(clusterListJson(second)).clusters[1].desiredVersion).toBe('4.15.0');
  });

  it('serializes rows that are not frozen (a viewer’s own rows) as they are now', () => {
    const row = { ...new PublishedHealth('a', assessed('a', '4.14.1').health).summary() };
    const list: ClusterListDto = { ...listOf([]), clusters: [row] };
    expect(clusterListJson(list)).toBe(JSON.stringify(list));
    row.name = 'renamed';
    expect(clusterListJson(list)).toBe(JSON.stringify(list));
  });

  it('answers with the list as JSON, never cached', async () => {
    const list = listOf([new PublishedHealth('a', assessed('a', '4.14.1').health)]);
    const response = await clusterListAnswer(list, null);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(list)));
  });
});

// What `next start` runs around a route's answer: its compression step (next.config.ts `compress: true`) in front of
// every answer, and the copy of the route's Response onto the Node response.
const nextRequire = createRequire(import.meta.url);
const nextCompression = nextRequire('next/dist/compiled/compression') as () => (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void;
const { sendResponse } = nextRequire('next/dist/server/send-response') as {
  sendResponse: (req: IncomingMessage, res: unknown, response: Response) => Promise<void>;
};
const { NodeNextResponse } = nextRequire('next/dist/server/base-http/node') as {
  NodeNextResponse: new (res: ServerResponse) => unknown;
};

/** A fleet of `size` rows, one frozen row's content under different ids. */
function fleetList(size: number): ClusterListDto {
  const row = new PublishedHealth('a', assessed('a', '4.14.1').health).summary();
  const list = listOf([]);
  return { ...list, clusters: Array.from({ length: size }, (_, i) => ({ ...row, id: `cluster-${i}` })) };
}

let server: Server | undefined;
afterEach(() => server?.close());

/** Serves the list's answer as `next start` does, after the Node server's request hooks; counts body writes. */
async function serveAsNext(list: ClusterListDto): Promise<{ port: number; writes: () => number }> {
  const compress = nextCompression();
  let writes = 0;
  server = createServer((req, res) => {
    for (const hook of NODE_REQUEST_HOOKS) hook(req, res);
    compress(req, res, () => {
      void clusterListAnswer(list, req.headers['accept-encoding'] ?? null).then((response) => {
        const write = res.write.bind(res) as (...args: unknown[]) => boolean;
        res.write = ((...args: unknown[]) => {
          writes += 1;
          return write(...args);
        }) as typeof res.write;
        return sendResponse(req, new NodeNextResponse(res), response);
      });
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, writes: () => writes };
}

function get(port: number, acceptEncoding: string): Promise<{ headers: IncomingMessage['headers']; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request({ port, path: '/api/clusters', headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the fleet list answer, compressed', () => {
  it('is gzip when the client takes it, in one write, and Next does not compress it again', async () => {
    const list = fleetList(500);
    const { port, writes } = await serveAsNext(list);
    const { headers, body } = await get(port, 'gzip, deflate, br');
    expect(headers['content-encoding']).toBe('gzip');
    expect(headers['x-update-health-content-encoding']).toBeUndefined();
    expect(headers.vary).toMatch(/accept-encoding/i);
    const text = clusterListJson(list);
    expect(body.length).toBeLessThan(text.length / 4);
    expect(gunzipSync(body).toString()).toBe(text);
    expect(writes()).toBe(1);
  });

  it('goes out plain to a client that refuses gzip, and when it is too small to gain from it', async () => {
    const list = fleetList(500);
    const refused = await clusterListAnswer(list, 'gzip;q=0, identity');
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(clusterListJson(list));
    const small = await clusterListAnswer(listOf([]), 'gzip');
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toEqual(listOf([]));
  });
});
