/**
 * Reconnects after an HTTP/2 session loss, against the served simulator: the watches of the lost session come back
 * through the origin's reconnect window, which follows the server's answers instead of a fixed rate, and resume
 * from their resourceVersion without a relist.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { testPod } from '@/server/simulator/test-objects';
import { startTcpRelay } from '@/server/testing/tcp-relay';
import { startFleet } from '@/server/simulator/fleet';
import { fleetMembers, startHub } from '@/server/simulator/hub/serve-hub';
import { h2Call } from './http-call';
import { observe, startSim, until, type Observed, type SimHarness } from '@/server/testing/reflector-harness';
import { KubeTransport } from './kube-transport';
import { H2SessionPool } from './h2-session-pool';
import type { ReconnectWindowOptions, ReconnectWindowState } from './h2-reconnect-window';

let sim: SimHarness | undefined;
let observed: Observed[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const o of observed) o.reflector.stop();
  observed = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await sim?.close();
  sim = undefined;
});

type Seen = ReconnectWindowState & { at: number };

/** Every change of the window, as its `onChange` reports them, and when. */
function recorder(options: ReconnectWindowOptions = {}): { window: ReconnectWindowOptions; seen: Seen[] } {
  const seen: Seen[] = [];
  return { window: { ...options, onChange: (state) => seen.push({ ...state, at: Date.now() }) }, seen };
}

/** Waits until `count` reconnects were sent and every one has its answer. */
async function allAnswered(seen: Seen[], count: number): Promise<void> {
  await until(
    `${count} reconnects to be answered`,
    () => {
      const last = seen.at(-1);
      return last?.inFlight === 0 && last.waiting === 0 && seen.filter((s) => s.event === 'sent').length >= count;
    },
    30_000,
  );
}

function transportWith(window: ReconnectWindowOptions): KubeTransport {
  const transport = KubeTransport.fromString(
    buildKubeconfig([
      { name: 'sim', server: sim!.served.url, caData: sim!.served.caData, token: sim!.served.tokens.admin },
    ]),
    { http2: { reconnectWindow: window } },
  );
  cleanups.push(() => transport.close());
  return transport;
}

/** `count` pod reflectors on one transport, synced with their watch open. */
async function watching(transport: KubeTransport, count: number): Promise<Observed[]> {
  const all = Array.from({ length: count }, () =>
    observe(transport, { inactivityTimeoutMs: 60_000, headerTimeoutMs: 30_000 }),
  );
  observed.push(...all);
  for (const o of all) o.reflector.start();
  await until('every reflector to sync', () => all.every((o) => o.reflector.state().status === 'synced'), 60_000);
  await until('every watch to be asked for', () => all.every((o) => o.watches().length === 1), 30_000);
  // asked for is not open: on a busy machine some still wait for their stream or their answer. Those are no
  // reconnects of the lost session, and a stream still unanswered when the server cuts its session closes without
  // an error event, so its request waits for its header deadline.
  await until(
    'every watch to deliver a bookmark',
    () => all.every((o) => o.reflector.state().counters.bookmarks > 0),
    30_000,
  );
  return all;
}

/** After the drop: a pod created then reaches every cache, each resumed from its resourceVersion, never relisted. */
async function expectResumed(all: Observed[], pods: number): Promise<void> {
  sim!.cluster.client.create('pods', testPod('ns', 'after-drop'));
  await until(
    'every cache to have the pod created after the drop',
    () => all.every((o) => o.reflector.cache.size === pods + 1),
    30_000,
  );
  for (const o of all) {
    expect(o.lists()).toHaveLength(1);
    expect(o.watches()[1].query.resourceVersion).toMatch(/^\d+$/);
  }
}

/** Sends that found the window full: none may happen. */
function sentOverWindow(seen: Seen[]): Seen[] {
  return seen.filter((state) => state.event === 'sent' && state.inFlight > state.size);
}

describe('reconnects after a session loss follow the server', () => {
  it('2,000 watches of a lost session come back within a few round trips when the server answers fast', async () => {
    sim = await startSim({ pods: 1 });
    const { window, seen } = recorder();
    const all = await watching(transportWith(window), 2_000);

    sim.served.dropConnections('destroy');
    await allAnswered(seen, 2_000);

    const sent = seen.filter((state) => state.event === 'sent');
    expect(sent.length).toBeGreaterThanOrEqual(2_000);
    expect(sentOverWindow(seen)).toEqual([]);
    // prompt answers grow the window past its start, and many reconnects are in flight at once
    expect(Math.max(...seen.map((state) => state.size))).toBeGreaterThan(256);
    expect(Math.max(...sent.map((state) => state.inFlight))).toBeGreaterThan(50);
    expect(seen.some((state) => state.event === 'overloaded' || state.event === 'lost')).toBe(false);
    // a fixed 500 per second would need 4 s from the first reconnect sent to the last
    expect(sent[sent.length - 1].at - sent[0].at).toBeLessThan(4_000);
    await expectResumed(all, 1);
  }, 120_000);

  it('answers of 429 shrink the window, and no reconnect is sent while it is full', async () => {
    sim = await startSim({ pods: 1 });
    const { window, seen } = recorder({ initial: 64, min: 2 });
    const all = await watching(transportWith(window), 300);

    sim.fault({ resource: 'pods', verb: 'watch', kind: 'status', status: 429, retryAfterSeconds: 1, count: 200 });
    sim.served.dropConnections('destroy');
    await allAnswered(seen, 300);
    expect(seen.filter((s) => s.event === 'overloaded')).toHaveLength(200);

    const smallest = Math.min(...seen.map((state) => state.size));
    expect(smallest).toBeLessThanOrEqual(16);
    expect(smallest).toBeGreaterThanOrEqual(2);
    expect(sentOverWindow(seen)).toEqual([]);
    // once the window shrank, what was sent after it waited for its place
    const firstRefusal = seen.findIndex((state) => state.event === 'overloaded');
    const sentAfter = seen.slice(firstRefusal).filter((state) => state.event === 'sent');
    expect(sentAfter.length).toBeGreaterThan(0);
    expect(Math.max(...sentAfter.map((state) => state.inFlight))).toBeLessThan(64);
    await expectResumed(all, 1);
  });

  it('a reconnect that gives up while waiting, for its place or for a session, frees its place', async () => {
    sim = await startSim();
    const relay = await startTcpRelay(new URL(sim.served.url));
    cleanups.push(() => relay.close());
    const { window, seen } = recorder({ initial: 1, min: 1 });
    const pool = new H2SessionPool({ reconnectWindow: window });
    cleanups.push(() => pool.close());
    const target = {
      url: new URL(relay.url),
      identity: 'test',
      tls: { ca: Buffer.from(sim.served.caData, 'base64') },
      connectTimeoutMs: 5_000,
    };
    const lost = await Promise.all([1, 2, 3, 4].map(() => pool.acquire(target)));
    sim.served.dropConnections('destroy');
    for (const lease of lost) {
      if (lease === 'http1') throw new Error('the simulator speaks h2');
      await until('the session to be lost', () => lease.session.destroyed || lease.session.closed);
      lease.failed();
      lease.release();
    }

    // the first reconnect takes the only place and waits for a session; the second waits for the place
    relay.delayConnections(400);
    const forSession = new AbortController();
    const first = pool.acquire(target, forSession.signal);
    const forPlace = new AbortController();
    const second = pool.acquire(target, forPlace.signal);
    await until('one reconnect in flight and one waiting', () => seen.at(-1)?.event === 'sent');
    expect(seen.at(-1)).toMatchObject({ inFlight: 1, size: 1 });
    forPlace.abort();
    await expect(second).rejects.toMatchObject({ name: 'KubeTransportError', failure: 'aborted' });
    forSession.abort();
    await expect(first).rejects.toMatchObject({ name: 'KubeTransportError', failure: 'aborted' });
    expect(seen.at(-1)).toMatchObject({ event: 'withdrawn', inFlight: 0, waiting: 0, size: 1 });

    // the places are free again: the next reconnects get through, one at a time
    relay.delayConnections(0);
    const third = await pool.acquire(target);
    expect(seen.at(-1)).toMatchObject({ event: 'sent', inFlight: 1 });
    const fourth = pool.acquire(target);
    if (third === 'http1') throw new Error('the simulator speaks h2');
    third.release();
    await expect(fourth).resolves.toMatchObject({ session: third.session });
    expect(seen.map((state) => state.event)).toEqual(['sent', 'withdrawn', 'sent', 'lost', 'sent']);
  });

  it('an unanswered reconnect frees its place after the retransmission timeout, not its header deadline', async () => {
    sim = await startSim({ pods: 1 });
    const { window, seen } = recorder({ initial: 1, min: 1 });
    const all = await watching(transportWith(window), 3);

    sim.fault({ resource: 'pods', verb: 'watch', kind: 'hang', count: 1 });
    sim.served.dropConnections('destroy');
    await until('two reconnects to be answered', () => seen.filter((s) => s.event === 'answered').length === 2, 15_000);

    // the first one sent hangs: after its timeout (1 s before any answer was timed) the next ones go
    expect(seen.map((state) => state.event)).toEqual(['sent', 'lost', 'sent', 'answered', 'sent', 'answered']);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(900);
    // its own request still waits for the server, within its 30 s header deadline: no watch was tried a third time
    expect(all.map((o) => o.watches().length)).toEqual([2, 2, 2]);
  });

  it("behind a proxy, one cluster's 429 or silence is its own, not the window of the others' reconnects", async () => {
    const fleet = await startFleet({ scenarios: ['steady'], size: 2, speed: 1, listen: false });
    cleanups.push(() => fleet.close());
    const hub = await startHub(fleetMembers(fleet));
    cleanups.push(() => hub.close());
    const { window, seen } = recorder({ initial: 2, min: 1 });
    const pool = new H2SessionPool({ reconnectWindow: window });
    cleanups.push(() => pool.close());
    const [refusing, other] = fleet.clusters.map((running) => running.id);
    const watchOf = (cluster: string) => {
      const url = new URL(`${hub.proxy.url}/${cluster}/apis/config.openshift.io/v1/clusterversions?watch=1`);
      const target = {
        url,
        identity: 'hub',
        tls: { ca: Buffer.from(hub.proxy.caData, 'base64') },
        connectTimeoutMs: 5_000,
      };
      return pool.acquire(target).then((lease) => {
        if (lease === 'http1') throw new Error('the proxy speaks h2');
        const call = h2Call(lease, url, 'GET', { authorization: `Bearer ${hub.controller.currentToken(cluster)!}` });
        call.onError(() => undefined);
        const answer = new Promise<number>((resolve) => call.onResponse((response) => resolve(response.status)));
        call.send();
        return { lease, answer };
      });
    };
    const before = await Promise.all([watchOf(refusing), watchOf(other)]);
    expect(await Promise.all(before.map((w) => w.answer))).toEqual([200, 200]);

    hub.proxy.dropConnections('destroy');
    for (const { lease } of before) {
      await until('the session to be lost', () => lease.session.destroyed || lease.session.closed);
      lease.failed();
    }
    fleet.clusters[0].cluster.faults.add({ verb: 'watch', kind: 'status', status: 429, retryAfterSeconds: 5 });
    fleet.clusters[1].cluster.faults.add({ verb: 'watch', kind: 'hang', count: 1 });
    const after = await Promise.all([watchOf(refusing), watchOf(other)]);
    expect(await after[0].answer).toBe(429);
    // the other cluster never answers: after the retransmission timeout its place is free, the window as it was
    await until('the unanswered reconnect to give up its place', () => seen.at(-1)?.event === 'late');

    expect(seen.map((state) => state.event)).toEqual(['sent', 'sent', 'answered', 'late']);
    expect(seen.at(-1)).toMatchObject({ size: 3, inFlight: 0 });
    for (const { lease } of after) lease.release();
  });
});
