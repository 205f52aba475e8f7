import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '@/server/testing/free-port';
import { createSimulatedCluster } from '@/server/simulator/core';
import { serveCluster } from '@/server/simulator/api-server';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { servingCertificate } from '@/server/simulator/tls';
import { simulatorTokens } from '@/server/simulator/auth';
import { testNamespace, testPod } from '@/server/simulator/test-objects';
import { KubeTransport } from './kube-transport';
import {
  observe,
  sleep,
  startSim,
  traceStatus,
  trackUnhandledRejections,
  until,
  type SimHarness,
} from '@/server/testing/reflector-harness';

const rejections = trackUnhandledRejections();
afterAll(() => {
  rejections.dispose();
  expect(rejections.seen).toEqual([]);
});

describe('reflector recovery against the served simulator', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 3 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('R1: a watch silent after its headers is abandoned after the inactivity timeout and resumed from the last RV without a relist, never marking the source stale', async () => {
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'silence', count: 1 });
    const o = observe(sim.transport, { inactivityTimeoutMs: 800 });
    const trace = traceStatus(o.reflector);
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    const listRv = o.reflector.resourceVersion;
    sim.cluster.client.create('pods', testPod('ns', 'during-silence'));
    await until('a second watch', () => o.watches().length >= 2, 4_000);
    const [first, second] = o.watches();
    expect(second.at - first.at).toBeGreaterThanOrEqual(750);
    expect(second.at - first.at).toBeLessThan(800 + 1_000 + 500);
    expect(second.query.resourceVersion).toBe(listRv);
    await until('the pod created during the silence', () =>
      o.events.some((e) => e.type === 'added' && e.object.metadata.name === 'during-silence' && !e.synthetic),
    );
    await until('recovered', () => o.reflector.state().status === 'synced' && o.reflector.state().error === undefined);
    trace.stop();
    // one quiet connection replaced well within the staleness threshold is not an outage
    expect(trace.statuses).toEqual(['pending', 'synced']);
    const state = o.reflector.state();
    expect(state.counters).toMatchObject({ lists: 1, relists: 0, reconnects: 1 });
    expect(o.lists()).toHaveLength(1);
    o.reflector.stop();
  });

  it('R1: a black-holed watch (headers, then no byte ever, not even a bookmark) turns the source stale once its data is older than the threshold, with the reason and the next retry', async () => {
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'silence' });
    const o = observe(sim.transport, { inactivityTimeoutMs: 800, staleAfterMs: 2_000 });
    const trace = traceStatus(o.reflector);
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    const synced = Date.now();
    await until('stale', () => o.reflector.state().status === 'stale', 6_000);
    expect(Date.now() - synced).toBeGreaterThanOrEqual(1_900);
    const state = o.reflector.state();
    expect(state.error?.reason).toBe('idle-timeout');
    expect(Date.parse(state.since)).toBeGreaterThanOrEqual(synced + 1_900);
    // still trying: the next attempt is scheduled or a watch is in flight
    await until(
      'another watch after turning stale',
      () => o.watches().some((w) => w.at > Date.parse(state.since)),
      4_000,
    );
    sim.clearFaults();
    await until('synced once bytes flow again', () => o.reflector.state().status === 'synced', 6_000);
    trace.stop();
    expect(trace.statuses).toEqual(['pending', 'synced', 'stale', 'synced']);
    o.reflector.stop();
  });

  it('R2: a server that never sends headers trips the header timeout on list and watch, and the reflector retries instead of hanging', async () => {
    sim.fault({ resource: 'pods', verb: 'list', kind: 'hang', count: 1 });
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'hang', count: 1 });
    const o = observe(sim.transport, { headerTimeoutMs: 500 });
    const trace = traceStatus(o.reflector);
    const started = Date.now();
    o.reflector.start();
    await until('the header timeout to surface', () => o.reflector.state().error?.reason === 'header-timeout', 2_000);
    expect(o.reflector.state().status).toBe('unreachable');
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    await until('a second watch after the hung one', () => o.watches().length >= 2, 3_000);
    await until('synced', () => o.reflector.state().status === 'synced', 3_000);
    trace.stop();
    // the hung LIST leaves the source without data (unreachable); the hung re-watch of a fresh cache does not
    expect(trace.statuses).toEqual(['pending', 'unreachable', 'synced']);
    await until('one request left on the server', async () => (await sim.activeRequests('/pods')).length === 1);
    o.reflector.stop();
  });

  it('R3: a watch closed at once with no events, in a loop, backs off instead of hot-looping', async () => {
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'close' });
    // production backoff (0.8 s → 30 s) and hot-loop guard (1 s)
    const o = observe(sim.transport, { backoff: {}, shortWatchMs: 1_000, staleAfterMs: 3_000 });
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    await sleep(10_000);
    const watches = o.watches().length;
    // 0.8, 1.6, 3.2, 6.4 s (jitter only shortens, by at most half): at most 7 watches fit in 10 s
    expect(watches).toBeGreaterThanOrEqual(3);
    expect(watches).toBeLessThanOrEqual(7);
    expect(sim.served.stats.snapshot().requests['pods:watch']).toBe(watches);
    const state = o.reflector.state();
    expect(state.status).toBe('stale');
    expect(state.error?.reason).toBe('VeryShortWatch');
    expect(state.retryAt).toBeDefined();
    expect(state.counters.relists).toBe(0);
    o.reflector.stop();
  }, 20_000);

  it('R7: 503 on list, then 500, ECONNRESET and a dropped stream on watch: recovers, loses nothing, keeps exactly one request', async () => {
    sim.fault({ resource: 'pods', verb: 'list', kind: 'status', status: 503, count: 1 });
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'status', status: 500, count: 1 });
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'reset', count: 1 });
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'drop', count: 1 });
    const o = observe(sim.transport);
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    sim.cluster.client.create('pods', testPod('ns', 'while-failing'));
    await until('four watches', () => o.watches().length >= 4, 5_000);
    await until('the new pod', () =>
      o.events.some((e) => e.type === 'added' && e.object.metadata.name === 'while-failing'),
    );
    await until('synced', () => o.reflector.state().status === 'synced', 3_000);
    const rvs = o.watches().map((w) => w.query.resourceVersion);
    expect(new Set(rvs.slice(0, 3)).size).toBe(1);
    expect(o.reflector.state().counters).toMatchObject({ lists: 1, relists: 0, watches: 4, reconnects: 3 });
    await until('exactly one active request', async () => (await sim.activeRequests('/pods')).length === 1);
    await sleep(300);
    const active = await sim.activeRequests('/pods');
    expect(active).toHaveLength(1);
    expect(active[0].query).toContain('watch=true');
    expect(o.reflector.cache.size).toBe(4);
    o.reflector.stop();
  });
});

describe('reflector against an absent API server', () => {
  it('R7: ECONNREFUSED shows as unreachable, is retried with backoff, and recovers once the server comes up', async () => {
    const port = await freePort();
    const kubeconfig = buildKubeconfig([
      {
        name: 'sim',
        server: `https://127.0.0.1:${port}`,
        caData: servingCertificate().caData,
        token: simulatorTokens().admin,
      },
    ]);
    const transport = KubeTransport.fromString(kubeconfig);
    const o = observe(transport);
    o.reflector.start();
    await until('ECONNREFUSED', () => o.reflector.state().error?.reason === 'ECONNREFUSED');
    expect(o.reflector.state().status).toBe('unreachable');
    await sleep(1_500);
    // 0.1, 0.2, 0.4, 0.8, 1 s steps: a handful of attempts, not hundreds
    expect(o.lists().length).toBeLessThanOrEqual(8);
    const cluster = createSimulatedCluster();
    cluster.client.create('namespaces', testNamespace('ns'));
    cluster.client.create('pods', testPod('ns', 'late'));
    const served = await serveCluster(cluster, { port });
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    expect(o.reflector.cache.getByName('late', 'ns')).toBeDefined();
    o.reflector.stop();
    transport.close();
    await served.close();
  });

  it('R7: a DNS failure shows as unreachable and is retried with backoff', async () => {
    const kubeconfig = buildKubeconfig([
      {
        name: 'sim',
        server: 'https://api.no-such-cluster.invalid:6443',
        caData: servingCertificate().caData,
        token: 'x',
      },
    ]);
    const transport = KubeTransport.fromString(kubeconfig);
    const o = observe(transport);
    o.reflector.start();
    await until('a DNS error', () => ['ENOTFOUND', 'EAI_AGAIN'].includes(o.reflector.state().error?.reason ?? ''));
    expect(o.reflector.state().status).toBe('unreachable');
    o.reflector.stop();
    transport.close();
  });
});
