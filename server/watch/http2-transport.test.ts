/**
 * Watches multiplexed on one HTTP/2 connection per API server, against the served simulator: the connection's
 * death (GOAWAY, a cut connection, a peer gone silent) fails every stream on it like a dropped HTTP/1.1 watch, and
 * the reflectors resume from their resourceVersion without a relist; a server's stream limit opens another session.
 */
import { describe, expect, it } from 'vitest';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { testPod } from '@/server/simulator/test-objects';
import type { ResourceName } from '@/lib/k8s/resources';
import { startTcpRelay } from '@/server/testing/tcp-relay';
import { KubeTransport } from './kube-transport';
import {
  FAST,
  observe,
  startSim,
  until,
  cleanupAfterEach,
  type Observed,
  type SimHarness,
} from '@/server/testing/reflector-harness';

let sim: SimHarness | undefined;
let observed: Observed[] = [];
const cleanups = cleanupAfterEach(() => ({ sim, observed }));

const WATCHED: { resource: ResourceName; namespace?: string }[] = [
  { resource: 'pods', namespace: 'ns' },
  { resource: 'namespaces' },
  { resource: 'nodes' },
  { resource: 'configmaps', namespace: 'ns' },
];

async function watchAll(transport: KubeTransport, options = {}): Promise<Observed[]> {
  observed = WATCHED.map(({ resource, namespace }) => observe(transport, { resource, namespace, ...options }));
  for (const o of observed) o.reflector.start();
  for (const o of observed) expect(await o.reflector.waitForSync(5_000)).toBe(true);
  // every reflector has its watch open
  await until('every watch to be open', () => openWatches() === WATCHED.length);
  return observed;
}

/** Watches the server is serving now (read in-process, so the check itself opens no stream). */
function openWatches(): number {
  return sim!.served.stats.snapshot().activeRequests.filter((r) => /(^|&)watch=true/.test(r.query)).length;
}

describe.each(['goaway', 'destroy'] as const)('the HTTP/2 connection ends (%s)', (how) => {
  it('every watch on it resumes from its resourceVersion on a new connection, without a relist', async () => {
    sim = await startSim({ pods: 3 });
    const reflectors = await watchAll(sim.transport);
    expect(sim.served.connections()).toMatchObject({ tcp: 1, h2Sessions: 1 });
    const before = reflectors.map((o) => o.watches().length);

    sim.served.dropConnections(how);
    sim.cluster.client.create('pods', testPod('ns', 'after-drop'));

    const pods = reflectors[0];
    await until('the pod created after the drop', () => pods.reflector.cache.size === 4);
    await until('every watch to be open again', () => openWatches() === WATCHED.length);
    for (const [i, o] of reflectors.entries()) {
      const counters = o.reflector.state().counters;
      expect({ resource: o.reflector.state().resource, lists: counters.lists, relists: counters.relists }).toEqual({
        resource: WATCHED[i].resource,
        lists: 1,
        relists: 0,
      });
      const rewatches = o.watches().slice(before[i]);
      expect(rewatches.length).toBeGreaterThan(0);
      for (const rewatch of rewatches) expect(rewatch.query.resourceVersion).toMatch(/^\d+$/);
      expect(o.lists()).toHaveLength(1);
    }
    expect(pods.events.filter((e) => e.type === 'added' && e.object.metadata.name === 'after-drop')).toHaveLength(1);
    expect(sim.served.connections()).toMatchObject({ tcp: 2, h2Sessions: 2, open: 1 });
  });
});

describe('HTTP/2 sessions', () => {
  it("opens another session only when the server's maxConcurrentStreams is reached", async () => {
    sim = await startSim({ server: { maxConcurrentStreams: 2 } });
    await watchAll(sim.transport);
    // four open watches, two streams per connection
    expect(sim.served.connections()).toMatchObject({ tcp: 2, h2Sessions: 2, open: 2 });
  });

  it('a server without h2 costs one ALPN probe, then every request goes over HTTP/1.1 keep-alive', async () => {
    sim = await startSim({ server: { http2: false } });
    await watchAll(sim.transport);
    const { tcp, h2Sessions, open } = sim.served.connections();
    expect(h2Sessions).toBe(0);
    // the probe is the only connection closed; each watch holds its own
    expect(tcp - open).toBe(1);
    expect(open).toBeGreaterThanOrEqual(WATCHED.length);
    // remembered: a later request makes no new probe
    await sim.transport.getJson('/version');
    const after = sim.served.connections();
    expect(after.tcp - after.open).toBe(1);
  });

  it('a peer gone silent (black hole) fails the watches by PING timeout, before any inactivity timeout', async () => {
    sim = await startSim({ pods: 1 });
    const hole = await startTcpRelay(new URL(sim.served.url));
    cleanups.push(() => hole.close());
    const transport = KubeTransport.fromString(
      buildKubeconfig([{ name: 'sim', server: hole.url, caData: sim.served.caData, token: sim.served.tokens.admin }]),
      { http2: { readIdleTimeoutMs: 100, pingTimeoutMs: 300 } },
    );
    cleanups.push(() => transport.close());
    const [pods] = (observed = [observe(transport, { inactivityTimeoutMs: 60_000, staleAfterMs: 60_000 })]);
    pods.reflector.start();
    expect(await pods.reflector.waitForSync(5_000)).toBe(true);

    hole.blackhole();
    const started = Date.now();
    const error = await until('the watch to fail', () => pods.reflector.state().error, 10_000);
    expect(error?.message).toMatch(/PING not acknowledged within 300 ms/);
    expect(Date.now() - started).toBeLessThan(FAST.inactivityTimeoutMs! * 5);
  });
});
