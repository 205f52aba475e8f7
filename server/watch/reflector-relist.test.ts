import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testPod } from '@/server/simulator/test-objects';
import type { ReflectorEvent } from './reflector-types';
import {
  observe,
  podName,
  sleep,
  startSim,
  trackUnhandledRejections,
  until,
  type Observed,
  type SimHarness,
} from '@/server/testing/reflector-harness';

const rejections = trackUnhandledRejections();
afterAll(() => {
  rejections.dispose();
  expect(rejections.seen).toEqual([]);
});

function relistEvents(events: ReflectorEvent[]) {
  return events
    .filter((e): e is Extract<ReflectorEvent, { object: unknown }> => e.type !== 'synced' && e.synthetic === true)
    .map((e) => `${e.type}:${e.object.metadata.name}`)
    .sort();
}

describe('relist on 410', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 5 });
  });
  afterEach(async () => {
    await sim.close();
  });

  /** The cache's objects once first synced, by key. */
  let cachedBefore: Map<string, unknown>;

  /** Syncs, then makes every watch hang (we are "disconnected") and changes the cluster meanwhile. */
  async function disconnectAndChange(): Promise<Observed> {
    // server-side watch timeout of 1 s, so the live watch ends and the next one meets the fault
    const o = observe(sim.transport, { watchTimeoutSeconds: { min: 1, max: 1 } });
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    cachedBefore = new Map(o.reflector.cache.keys().map((key) => [key, o.reflector.cache.get(key)]));
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'hang' });
    await until('a hung watch', () => o.watches().length >= 2, 3_000);
    const client = sim.cluster.client;
    client.delete('pods', podName(0), 'ns');
    client.delete('pods', podName(1), 'ns');
    client.patch('pods', podName(2), { metadata: { labels: { changed: 'yes' } } }, { namespace: 'ns' });
    client.create('pods', testPod('ns', 'pod-new'));
    return o;
  }

  async function expectOneRelist(o: Observed): Promise<void> {
    const changedAt = sim.cluster.store.currentRv();
    await until('a relist', () => o.reflector.state().counters.lists === 2, 5_000);
    expect(relistEvents(o.events)).toEqual(['added:pod-new', 'deleted:pod-000', 'deleted:pod-001', 'modified:pod-002']);
    // what the relist found unchanged stays the cached object (the repeat dies young); what changed is new
    for (const pod of [podName(3), podName(4)])
      expect(o.reflector.cache.get(`ns/${pod}`)).toBe(cachedBefore.get(`ns/${pod}`));
    expect(o.reflector.cache.get(`ns/${podName(2)}`)).not.toBe(cachedBefore.get(`ns/${podName(2)}`));
    const relist = o.lists()[1];
    expect(relist.query.resourceVersion).toBeUndefined();
    expect(o.reflector.cache.keys().sort()).toEqual(
      sim.cluster.client
        .list('pods', { namespace: 'ns' })
        .map((p) => `ns/${p.metadata.name}`)
        .sort(),
    );
    await until('watching again', () => o.reflector.state().status === 'synced');
    await sleep(1_000);
    expect(o.reflector.state().counters).toMatchObject({ relists: 1, lists: 2 });
    // the watch after the relist continues from the fresh list, not from the expired RV
    const resumed = o.watches().find((w) => w.at >= relist.at);
    expect(Number(resumed?.query.resourceVersion)).toBeGreaterThanOrEqual(changedAt);
    o.reflector.stop();
  }

  it('R4: HTTP 410 at watch start relists once from RV "" with synthetic deletes, adds and updates', async () => {
    const o = await disconnectAndChange();
    sim.clearFaults();
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'status', status: 410, count: 1 });
    await expectOneRelist(o);
  });

  it('R4: an in-stream ERROR 410 (RV compacted while disconnected) relists once with synthetic events', async () => {
    const o = await disconnectAndChange();
    sim.cluster.store.compact();
    sim.clearFaults();
    await expectOneRelist(o);
  });
});

describe('paged list', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 45 });
  });
  afterEach(async () => {
    await sim.close();
  });

  /** Deletes one listed pod, adds one, and compacts: the continue token in flight is now too old. */
  function changeAndCompact(tag: string): void {
    const first = sim.cluster.client.list('pods', { namespace: 'ns' })[0];
    sim.cluster.client.delete('pods', first.metadata.name, 'ns');
    sim.cluster.client.create('pods', testPod('ns', `zz-${tag}`));
    sim.cluster.store.compact();
  }

  it('R5: a continue token expiring on page 3 restarts the list; the result is consistent and nothing is merged', async () => {
    let pages = 0;
    const o = observe(sim.transport, {
      pageSize: 10,
      onRequest: (request) => {
        if (request.verb === 'list' && ++pages === 3) changeAndCompact('a');
      },
    });
    o.reflector.start();
    expect(await o.reflector.waitForSync(5_000)).toBe(true);
    const state = o.reflector.state();
    expect(state.counters).toMatchObject({ lists: 1, listRestarts: 1, relists: 0 });
    // pages 1-2, the 410 on page 3, then 5 fresh pages
    expect(o.lists()).toHaveLength(8);
    expect(o.lists()[3].query.continue).toBeUndefined();
    const server = sim.cluster.client
      .list('pods', { namespace: 'ns' })
      .map((p) => `ns/${p.metadata.name}`)
      .sort();
    expect(o.reflector.cache.keys().sort()).toEqual(server);
    expect(server).toHaveLength(45);
    // one add per object of the consistent list, none from the discarded pages
    expect(o.events.filter((e) => e.type === 'added')).toHaveLength(45);
    expect(o.events.filter((e) => e.type === 'deleted')).toHaveLength(0);
    o.reflector.stop();
  });

  it('R5: tokens expiring on every attempt end in one unpaged consistent list, not an endless loop', async () => {
    let restarts = 0;
    const o = observe(sim.transport, {
      pageSize: 10,
      onRequest: (request) => {
        if (request.verb === 'list' && request.query.continue) changeAndCompact(String(restarts++));
      },
    });
    o.reflector.start();
    expect(await o.reflector.waitForSync(5_000)).toBe(true);
    expect(o.reflector.state().counters).toMatchObject({ lists: 1, listRestarts: 2 });
    const last = o.lists()[o.lists().length - 1];
    expect(last.query.limit).toBeUndefined();
    expect(o.lists()).toHaveLength(5);
    const server = sim.cluster.client
      .list('pods', { namespace: 'ns' })
      .map((p) => `ns/${p.metadata.name}`)
      .sort();
    expect(o.reflector.cache.keys().sort()).toEqual(server);
    o.reflector.stop();
  });
});

describe('bookmarks', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 0, bookmarkIntervalMs: 100 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('R9: a bookmark-only stream advances the RV; reconnecting after compaction relists at most once', async () => {
    const o = observe(sim.transport, {
      resource: 'namespaces',
      namespace: undefined,
      watchTimeoutSeconds: { min: 1, max: 1 },
    });
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    const listRv = Number(o.reflector.resourceVersion);
    // writes to another resource move the global RV; the namespaces watch only sees bookmarks
    for (let i = 0; i < 3; i += 1) sim.cluster.client.create('pods', testPod('ns', `p${i}`));
    const current = String(sim.cluster.store.currentRv());
    await until('the RV to reach the store RV via bookmarks', () => o.reflector.resourceVersion === current, 3_000);
    expect(Number(current)).toBeGreaterThan(listRv);
    const state = o.reflector.state();
    expect(state.counters.bookmarks).toBeGreaterThan(0);
    expect(o.events.filter((e) => e.type !== 'synced')).toHaveLength(1);
    // compaction at the RV we already hold: the reconnects do not need a relist
    sim.cluster.store.compact();
    const watchesBefore = o.watches().length;
    await until('a reconnect after the compaction', () => o.watches().length >= watchesBefore + 2, 3_000);
    expect(o.reflector.state().counters.relists).toBe(0);
    // writes then compaction between two bookmarks: at most one relist, then quiet again
    sim.cluster.client.create('pods', testPod('ns', 'p-late'));
    sim.cluster.store.compact();
    const watchesThen = o.watches().length;
    await until('two more watches', () => o.watches().length >= watchesThen + 2, 4_000);
    const after = o.reflector.state();
    expect(after.counters.relists).toBeLessThanOrEqual(1);
    expect(after.status).toBe('synced');
    o.reflector.stop();
  });
});
