/**
 * The HTTP/2 session pool under load, against the served simulator (through a TCP relay where the network has to
 * misbehave): a late event loop is not a dead peer, a failed connect fails only its own attempt, waiters for a
 * stream slot are served in order, and the watches of a lost session reconnect through the origin's reconnect window.
 */
import { describe, expect, it } from 'vitest';
import { setImmediate as turn } from 'node:timers/promises';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { testPod } from '@/server/simulator/test-objects';
import { startTcpRelay, type TcpRelay } from '@/server/testing/tcp-relay';
import {
  observe,
  startSim,
  until,
  cleanupAfterEach,
  type Observed,
  type SimHarness,
} from '@/server/testing/reflector-harness';
import { KubeTransport, type KubeTransportOptions } from './kube-transport';
import { H2SessionPool } from './h2-session-pool';
import type { ReconnectWindowState } from './h2-reconnect-window';
import type { H2Target } from './h2-connect';
import { KubeTransportError } from './kube-errors';

let sim: SimHarness | undefined;
let observed: Observed[] = [];
const cleanups = cleanupAfterEach(() => ({ sim, observed }));

/** Keeps the event loop busy for `ms`, as a long synchronous task (a big JSON parse, a detector run) does. */
function blockLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

function transportTo(server: string, options: KubeTransportOptions): KubeTransport {
  const transport = KubeTransport.fromString(
    buildKubeconfig([{ name: 'sim', server, caData: sim!.served.caData, token: sim!.served.tokens.admin }]),
    options,
  );
  cleanups.push(() => transport.close());
  return transport;
}

async function relayToSim(): Promise<TcpRelay> {
  const relay = await startTcpRelay(new URL(sim!.served.url));
  cleanups.push(() => relay.close());
  return relay;
}

function poolWith(options: ConstructorParameters<typeof H2SessionPool>[0] = {}): H2SessionPool {
  const pool = new H2SessionPool(options);
  cleanups.push(() => pool.close());
  return pool;
}

function targetOf(server: string, connectTimeoutMs = 5_000, caData = sim!.served.caData): H2Target {
  return {
    url: new URL(server),
    identity: 'test',
    tls: { ca: Buffer.from(caData, 'base64') },
    connectTimeoutMs,
  };
}

/** Counts event-loop turns (check phases) from now until `stop`. */
function turnCounter() {
  let turns = 0;
  let counting = true;
  const tick = () => {
    turns += 1;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turns, stop: () => (counting = false) };
}

/** Asks `pool` for `count` streams in one turn; the order they were granted in and how many each turn granted. */
async function acquireCountingTurns(pool: H2SessionPool, target: H2Target, count: number) {
  const turns = turnCounter();
  const grants: { name: number; turn: number }[] = [];
  const acquired = await Promise.all(
    Array.from({ length: count }, (_, name) =>
      pool.acquire(target).then((stream) => {
        grants.push({ name, turn: turns.now() });
        return stream;
      }),
    ),
  );
  turns.stop();
  const perTurn = new Map<number, number>();
  for (const { turn } of grants) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  return { acquired, order: grants.map((grant) => grant.name), perTurn };
}

describe('liveness as client-go judges it', () => {
  it('a busy session survives the event loop being blocked for longer than the PING timeout', async () => {
    sim = await startSim({ pods: 1 });
    const transport = transportTo(sim.served.url, { http2: { readIdleTimeoutMs: 100, pingTimeoutMs: 300 } });
    const [pods] = (observed = [observe(transport, { inactivityTimeoutMs: 60_000, staleAfterMs: 60_000 })]);
    pods.reflector.start();
    expect(await pods.reflector.waitForSync(5_000)).toBe(true);
    await until(
      'the watch to be open',
      () => pods.watches().length === 1 && pods.reflector.state().status === 'synced',
    );

    let created = 0;
    const busy = setInterval(() => sim!.cluster.client.create('pods', testPod('ns', `busy-${created++}`)), 5);
    cleanups.push(() => clearInterval(busy));
    for (let round = 0; round < 4; round += 1) {
      await until('the session to carry events', () => pods.reflector.cache.size > created - 2 && created > round);
      blockLoop(800);
      await turn();
    }
    const after = created;
    await until('the events created after the blocks', () => pods.reflector.cache.size >= after + 1, 10_000);

    expect(pods.reflector.state().error).toBeUndefined();
    expect(pods.watches()).toHaveLength(1);
    expect(sim.served.connections()).toMatchObject({ tcp: 1, h2Sessions: 1, open: 1 });
  });

  it('a black-holed session still fails every stream on it, within read-idle + PING timeout', async () => {
    sim = await startSim({ pods: 1 });
    const hole = await relayToSim();
    const transport = transportTo(hole.url, { http2: { readIdleTimeoutMs: 100, pingTimeoutMs: 300 } });
    observed = ['a', 'b'].map(() => observe(transport, { inactivityTimeoutMs: 60_000, staleAfterMs: 60_000 }));
    for (const o of observed) o.reflector.start();
    for (const o of observed) expect(await o.reflector.waitForSync(5_000)).toBe(true);

    hole.blackhole();
    const started = Date.now();
    for (const o of observed) {
      const error = await until('the watch to fail', () => o.reflector.state().error, 10_000);
      expect(error?.message).toMatch(/PING not acknowledged within 300 ms/);
    }
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('deadlines on the server', () => {
  it("a request's header timeout does not count the time our own event loop was blocked", async () => {
    sim = await startSim({ pods: 1 });
    sim.fault({ resource: 'pods', verb: 'list', kind: 'slow', delayMs: 300, count: 1 });
    const transport = transportTo(sim.served.url, { headerTimeoutMs: 600 });
    await transport.getJson('/version');
    const listing = transport.getJson<{ items: unknown[] }>('/api/v1/namespaces/ns/pods');
    await until('the server to hold the list', () =>
      sim!.served.stats.snapshot().activeRequests.some((r) => r.path.endsWith('/pods')),
    );
    // the server answered at 300 ms, but our loop only gets to read it after the 600 ms deadline
    blockLoop(1_000);
    await expect(listing).resolves.toMatchObject({ items: [expect.anything()] });
  });
});

describe('a busy server is not a dead one', () => {
  it('over HTTP/2 a request whose session still receives bytes gets one more header period, and no more', async () => {
    sim = await startSim({ pods: 1 });
    const transport = transportTo(sim.served.url, { headerTimeoutMs: 600, http2: {} });
    const [pods] = (observed = [observe(transport, { inactivityTimeoutMs: 60_000, staleAfterMs: 60_000 })]);
    pods.reflector.start();
    expect(await pods.reflector.waitForSync(5_000)).toBe(true);
    let created = 0;
    const busy = setInterval(() => sim!.cluster.client.create('pods', testPod('ns', `busy-${created++}`)), 20);
    cleanups.push(() => clearInterval(busy));

    sim.fault({ resource: 'configmaps', verb: 'list', kind: 'slow', delayMs: 1_000, count: 1 });
    await expect(transport.getJson('/api/v1/namespaces/ns/configmaps')).resolves.toMatchObject({ items: [] });

    sim.fault({ resource: 'configmaps', verb: 'list', kind: 'hang' });
    const started = Date.now();
    await expect(transport.getJson('/api/v1/namespaces/ns/configmaps')).rejects.toMatchObject({
      failure: 'header-timeout',
      message: 'no response headers within 1200 ms',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_100);
  });
});

describe('giving up on requests', () => {
  it('a burst of requests abandoned before their answer does not make the server close the session', async () => {
    sim = await startSim();
    sim.fault({ resource: 'pods', verb: 'list', kind: 'hang' });
    const transport = transportTo(sim.served.url, { headerTimeoutMs: 1_000, http2: {} });
    const [namespaces] = (observed = [observe(transport, { resource: 'namespaces', namespace: undefined })]);
    namespaces.reflector.start();
    expect(await namespaces.reflector.waitForSync(5_000)).toBe(true);
    const hung = () => sim!.served.stats.snapshot().activeRequests.filter((r) => r.path.endsWith('/pods')).length;

    // past Node's rapid-reset budget (1,000 streams cancelled before their answer), which closes the session
    const lists = Array.from({ length: 1_200 }, () => transport.getJson('/api/v1/namespaces/ns/pods'));
    const outcomes = await Promise.allSettled(lists);
    expect(outcomes.every((o) => o.status === 'rejected' && o.reason.failure === 'header-timeout')).toBe(true);
    await until('the server to see the first cancels', () => hung() <= 1_000, 10_000);
    await transport.getJson('/version');

    expect(namespaces.watches()).toHaveLength(1);
    expect(namespaces.reflector.state().error).toBeUndefined();
    expect(sim.served.connections()).toMatchObject({ tcp: 1, h2Sessions: 1, open: 1 });
  });
});

describe('connecting', () => {
  it('a connect that times out fails only its own attempt: the requests waiting on it get the next session', async () => {
    sim = await startSim();
    const relay = await relayToSim();
    relay.silenceNext(1);
    const pool = poolWith();
    const target = targetOf(relay.url, 300);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => pool.acquire(target)));

    expect(results.map((r) => r.status)).toEqual(Array(20).fill('fulfilled'));
    expect(relay.accepted).toBe(2);
    expect(pool.openSessions).toBe(1);
  });

  it('a waiter gives up when its own signal aborts, while the connect is retried for nobody', async () => {
    sim = await startSim();
    const relay = await relayToSim();
    relay.silenceNext(1_000);
    const pool = poolWith();
    const abort = new AbortController();
    const waiting = pool.acquire(targetOf(relay.url, 200), abort.signal);
    await until('a connect to be tried again', () => relay.accepted >= 2);
    abort.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'KubeTransportError', failure: 'aborted' });
    const accepted = relay.accepted;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(relay.accepted - accepted).toBeLessThanOrEqual(1);
  });

  it('definitive failures (nothing listening, an untrusted certificate) fail every waiter at once', async () => {
    sim = await startSim();
    const relay = await relayToSim();
    const port = new URL(relay.url).port;
    await relay.close();
    const refused = poolWith();
    const started = Date.now();
    const none = await Promise.allSettled([1, 2, 3].map(() => refused.acquire(targetOf(`https://127.0.0.1:${port}`))));
    expect(none.map((r) => r.status === 'rejected' && (r.reason as KubeTransportError).failure)).toEqual([
      'connect',
      'connect',
      'connect',
    ]);

    const untrusted = poolWith();
    const wrongCa = {
      ...targetOf(sim.served.url),
      tls: { ...targetOf(sim.served.url).tls, servername: 'elsewhere.example' },
    };
    const bad = await Promise.allSettled([1, 2, 3].map(() => untrusted.acquire(wrongCa)));
    expect(bad.map((r) => r.status === 'rejected' && (r.reason as KubeTransportError).failure)).toEqual([
      'tls',
      'tls',
      'tls',
    ]);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('waiting for a stream slot', () => {
  it('waiters are served first-come first-served, when a slot or a new session frees up', async () => {
    sim = await startSim({ server: { maxConcurrentStreams: 2 } });
    const relay = await relayToSim();
    const pool = poolWith();
    const target = targetOf(relay.url);
    const first = await pool.acquire(target);
    await pool.acquire(target);
    expect(pool.openSessions).toBe(1);

    relay.delayConnections(300);
    const order: string[] = [];
    const enter = (name: string) => pool.acquire(target).then((acquired) => order.push(name) && acquired);
    const early = ['a', 'b', 'c'].map(enter);
    await until('the second session to be connecting', () => relay.accepted === 2);
    if (first === 'http1') throw new Error('the simulator speaks h2');
    first.release();
    await turn();
    const late = enter('late');
    await Promise.all([...early, late]);

    expect(order).toEqual(['a', 'b', 'c', 'late']);
    expect(pool.openSessions).toBe(3);
  });
});

describe('a queue granted a new session', () => {
  it('is granted in arrival order over several event-loop turns, not all in one', async () => {
    sim = await startSim();
    const relay = await relayToSim();
    const pool = poolWith();
    const target = targetOf(relay.url);
    relay.delayConnections(200);
    const { acquired, order, perTurn } = await acquireCountingTurns(pool, target, 300);
    expect(order).toEqual(order.map((_, i) => i));
    expect(perTurn.size).toBeGreaterThanOrEqual(5);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(64);
    for (const stream of acquired) if (stream !== 'http1') stream.release();
  });

  it('is granted at most 64 per turn also when other streams end in that turn', async () => {
    sim = await startSim({ server: { maxConcurrentStreams: 200 } });
    const relay = await relayToSim();
    const pool = poolWith();
    const target = targetOf(relay.url);
    const held = (await acquireCountingTurns(pool, target, 200)).acquired.filter((stream) => stream !== 'http1');
    expect(pool.openSessions).toBe(1);

    relay.delayConnections(200);
    const turns = turnCounter();
    const perTurn = new Map<number, number>();
    let ended = false;
    // In the turn the new session's first waiter is granted, 20 streams of the full session end (their lists
    // answered): each end hands its slot on, and must not grant the new session's free slots beyond the turn's share.
    const grantedAt = (stream: Awaited<ReturnType<H2SessionPool['acquire']>>) => {
      perTurn.set(turns.now(), (perTurn.get(turns.now()) ?? 0) + 1);
      if (!ended) {
        ended = true;
        for (const done of held.splice(0, 20)) done.release();
      }
      return stream;
    };
    const queued = await Promise.all(Array.from({ length: 220 }, () => pool.acquire(target).then(grantedAt)));
    turns.stop();

    expect(pool.openSessions).toBe(2);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(64);
    for (const stream of [...held, ...queued]) if (stream !== 'http1') stream.release();
  });
});

describe('requests to a session with free slots', () => {
  it('are admitted at most 64 per event-loop turn, in order, however many ask in one turn', async () => {
    sim = await startSim();
    const pool = poolWith();
    const target = targetOf(sim.served.url);
    const first = await pool.acquire(target);
    if (first === 'http1') throw new Error('the simulator speaks h2');
    const { acquired, order, perTurn } = await acquireCountingTurns(pool, target, 300);
    expect(order).toEqual(order.map((_, i) => i));
    expect(perTurn.size).toBeGreaterThanOrEqual(5);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(64);
    expect(pool.openSessions).toBe(1);
    for (const stream of [first, ...acquired]) if (stream !== 'http1') stream.release();
  });

  it('a request that gives up while waiting for its turn is refused as aborted and takes no slot', async () => {
    sim = await startSim();
    const pool = poolWith();
    const target = targetOf(sim.served.url);
    const controller = new AbortController();
    const early = Array.from({ length: 64 }, () => pool.acquire(target));
    const late = pool.acquire(target, controller.signal);
    const after = pool.acquire(target);
    controller.abort();
    await expect(late).rejects.toMatchObject({ failure: 'aborted' });
    const granted = await Promise.all([...early, after]);
    expect(granted).toHaveLength(65);
    for (const stream of granted) if (stream !== 'http1') stream.release();
  });
});

describe('reconnects after a session loss', () => {
  it("the watches of a lost session come back through the origin's window, and resume without a relist", async () => {
    sim = await startSim({ pods: 2 });
    const seen: ReconnectWindowState[] = [];
    const reconnectWindow = { initial: 4, min: 1, onChange: (state: ReconnectWindowState) => seen.push(state) };
    const transport = transportTo(sim.served.url, { http2: { reconnectWindow } });
    observed = Array.from({ length: 40 }, () => observe(transport, { inactivityTimeoutMs: 60_000 }));
    for (const o of observed) o.reflector.start();
    for (const o of observed) expect(await o.reflector.waitForSync(5_000)).toBe(true);
    await until('every watch to be open', () => observed.every((o) => o.watches().length === 1));

    sim.fault({ resource: 'pods', verb: 'watch', kind: 'slow', delayMs: 100, count: 40 });
    sim.served.dropConnections('destroy');
    await until('every watch to be back', () => observed.every((o) => o.watches().length >= 2), 10_000);
    sim.cluster.client.create('pods', testPod('ns', 'after-drop'));
    await until('every cache to have the pod created after the drop', () =>
      observed.every((o) => o.reflector.cache.size === 3),
    );

    const sent = seen.filter((state) => state.event === 'sent');
    expect(sent).toHaveLength(40);
    expect(sent.filter((state) => state.inFlight > state.size)).toEqual([]);
    // the first round trip lets the window's start through; each prompt answer then lets two more (slow start)
    expect(seen.slice(0, 5).map((state) => state.event)).toEqual(['sent', 'sent', 'sent', 'sent', 'answered']);
    expect(seen[4]).toMatchObject({ size: 5, inFlight: 3 });
    expect(seen.slice(5, 7)).toMatchObject([
      { event: 'sent', inFlight: 4 },
      { event: 'sent', inFlight: 5 },
    ]);
    expect(Math.max(...sent.map((state) => state.inFlight))).toBeLessThan(40);
    for (const o of observed) {
      expect(o.lists()).toHaveLength(1);
      expect(o.watches()[1].query.resourceVersion).toMatch(/^\d+$/);
    }
  });
});
