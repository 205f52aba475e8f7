import { execFile } from 'node:child_process';
import { connect, type ClientHttp2Session, type ClientHttp2Stream } from 'node:http2';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFleet, type Fleet } from '../fleet';
import { buildKubeconfig } from '../kubeconfig';
import { fleetMembers, startHub, type EmbeddedHub } from './serve-hub';

const CV_PATH = '/apis/config.openshift.io/v1/clusterversions';

/** One HTTP/2 request through the proxy; `lines` collects the body's newline-delimited JSON as it streams. */
function open(session: ClientHttp2Session, path: string, token: string) {
  const stream: ClientHttp2Stream = session.request({ ':path': path, authorization: `Bearer ${token}` });
  const state = { status: 0, body: '', closed: false };
  stream.on('response', (headers) => (state.status = Number(headers[':status'])));
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (state.body += chunk));
  stream.on('close', () => (state.closed = true));
  stream.on('error', () => undefined);
  const lines = () =>
    state.body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type?: string; object?: { spec?: { channel?: string } } });
  return { stream, state, lines };
}

describe('members with no listener, reached through the embedded cluster-proxy in process', () => {
  let fleet: Fleet;
  let hub: EmbeddedHub;
  let dir: string;
  let session: ClientHttp2Session;
  const token = (cluster: string) => hub.controller.currentToken(cluster)!;
  const channel = (index: number, value: string) => {
    const { client } = fleet.clusters[index].cluster;
    const cv = client.get('clusterversions', 'version')!;
    client.update('clusterversions', { ...cv, spec: { ...(cv.spec as object), channel: value } });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-in-process-'));
    fleet = await startFleet({ scenarios: ['steady'], size: 3, speed: 1, listen: false });
    hub = await startHub(fleetMembers(fleet), { bookmarkIntervalMs: 200 });
    session = connect(hub.proxy.url, { ca: Buffer.from(hub.proxy.caData, 'base64').toString() });
    session.on('error', () => undefined);
  });
  afterAll(async () => {
    session?.destroy();
    await hub?.close();
    await fleet?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('opens no port per member and names each by an address of its own', () => {
    expect(fleet.listens).toBe(false);
    expect(fleet.clusters.map((running) => running.url)).toEqual([
      'https://api.steady-0.sim.invalid:6443',
      'https://api.steady-1.sim.invalid:6443',
      'https://api.steady-2.sim.invalid:6443',
    ]);
    expect(fleet.clusters[0].server.connections()).toEqual({ tcp: 0, h2Sessions: 0, open: 0 });
  });

  it('answers real kubectl with the synced managed-serviceaccount token', async () => {
    const kubeconfig = join(dir, 'steady-1.yaml');
    writeFileSync(
      kubeconfig,
      buildKubeconfig([
        { name: 'steady-1', server: `${hub.proxy.url}/steady-1`, caData: hub.proxy.caData, token: token('steady-1') },
      ]),
    );
    const run = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        'kubectl',
        [
          '--kubeconfig',
          kubeconfig,
          '--cache-dir',
          join(dir, 'cache'),
          'get',
          'clusterversion',
          'version',
          '-o',
          'json',
        ],
        { timeout: 20_000 },
        (_, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ kind: 'ClusterVersion', metadata: { name: 'version' } });
  });

  it('lists and watches over one HTTP/2 session, each member with its own token', async () => {
    const list = open(session, `/steady-0${CV_PATH}`, token('steady-0'));
    await vi.waitFor(() => expect(list.state.closed).toBe(true), { timeout: 10_000 });
    expect(list.state.status).toBe(200);
    const items = (JSON.parse(list.state.body) as { items: { metadata: { resourceVersion: string } }[] }).items;
    expect(items).toHaveLength(1);
    const watch = open(
      session,
      `/steady-0${CV_PATH}?watch=true&resourceVersion=${items[0].metadata.resourceVersion}`,
      token('steady-0'),
    );
    await vi.waitFor(() => expect(watch.state.status).toBe(200), { timeout: 10_000 });
    channel(0, 'watched-1');
    await vi.waitFor(
      () => expect(watch.lines().some((event) => event.object?.spec?.channel === 'watched-1')).toBe(true),
      { timeout: 10_000 },
    );
    // A token of another member is refused by the member the path names.
    const other = open(session, `/steady-1${CV_PATH}`, token('steady-0'));
    await vi.waitFor(() => expect(other.state.status).toBe(401), { timeout: 10_000 });
    watch.stream.close();
  });

  it('black-holes a member: its watch stops delivering, new requests never reach it, others carry on', async () => {
    const watch = (index: number) =>
      open(session, `/steady-${index}${CV_PATH}?watch=true&allowWatchBookmarks=false`, token(`steady-${index}`));
    const [held, healthy] = [watch(1), watch(2)];
    await vi.waitFor(() => expect([held.state.status, healthy.state.status]).toEqual([200, 200]), { timeout: 10_000 });
    await vi.waitFor(() => expect(held.lines().length).toBeGreaterThan(0), { timeout: 10_000 });
    const heldEvents = held.lines().length;
    hub.faults.set({ cluster: 'steady-1', blackhole: true });
    const requestsBefore = fleet.clusters[1].server.stats.snapshot().requests;
    const unanswered = open(session, `/steady-1${CV_PATH}`, token('steady-1'));
    channel(1, 'lost-1');
    channel(2, 'seen-2');
    const answered = open(session, `/steady-2${CV_PATH}`, token('steady-2'));
    await vi.waitFor(() => expect(answered.state.closed).toBe(true), { timeout: 10_000 });
    await vi.waitFor(
      () => expect(healthy.lines().some((event) => event.object?.spec?.channel === 'seen-2')).toBe(true),
      { timeout: 10_000 },
    );
    // Both requests went out on one session, the black-holed one first; the proxy handled it before the answer.
    expect(unanswered.state).toMatchObject({ status: 0, body: '', closed: false });
    expect(fleet.clusters[1].server.stats.snapshot().requests).toEqual(requestsBefore);
    expect(held.lines()).toHaveLength(heldEvents);
    hub.faults.clear('steady-1');
    const after = open(session, `/steady-1${CV_PATH}`, token('steady-1'));
    await vi.waitFor(() => expect(after.state.closed).toBe(true), { timeout: 10_000 });
    expect(after.state.status).toBe(200);
    for (const request of [held, healthy, unanswered]) request.stream.close();
  });

  it('restarts: every tunnelled stream drops, and the same address and CA answer again', async () => {
    const watch = open(session, `/steady-0${CV_PATH}?watch=true`, token('steady-0'));
    await vi.waitFor(() => expect(watch.state.status).toBe(200), { timeout: 10_000 });
    await hub.proxy.restart();
    await vi.waitFor(() => expect(watch.state.closed).toBe(true), { timeout: 10_000 });
    expect(fleet.clusters[0].server.stats.snapshot().activeRequests).toEqual([]);
    session = connect(hub.proxy.url, { ca: Buffer.from(hub.proxy.caData, 'base64').toString() });
    session.on('error', () => undefined);
    const list = open(session, `/steady-0${CV_PATH}`, token('steady-0'));
    await vi.waitFor(() => expect(list.state.closed).toBe(true), { timeout: 10_000 });
    expect(list.state.status).toBe(200);
  });
});
