/**
 * R14, WatchList (KEP-3157) against the served simulator: where the API server supports `sendInitialEvents` the
 * reflector syncs through it and is synced at the bookmark annotated `k8s.io/initial-events-end`; where it does not
 * (422, as servers without the feature answer), it falls back to paged LIST + WATCH and remembers that per server.
 */
import { describe, expect, it } from 'vitest';
import { testPod } from '@/server/simulator/test-objects';
import type { KubeObject } from '@/lib/k8s/types';
import { KubeApiError } from './kube-errors';
import {
  FAST,
  observe,
  startSim,
  until,
  cleanupAfterEach,
  type Observed,
  type SimHarness,
} from '@/server/testing/reflector-harness';
import { INITIAL_EVENTS_END } from './watch-list';

let sim: SimHarness | undefined;
let observed: Observed[] = [];
cleanupAfterEach(() => ({ sim, observed }));

const WATCH_LIST = { ...FAST, watchList: true };

/** The raw lines of a watch request, read until `count` lines arrived. */
async function rawWatch(query: Record<string, string>, count: number): Promise<{ type: string; object: KubeObject }[]> {
  const lines: { type: string; object: KubeObject }[] = [];
  await sim!.transport.stream(
    '/api/v1/namespaces/ns/pods',
    { watch: 'true', ...query },
    { onLine: (line) => lines.push(JSON.parse(line) as { type: string; object: KubeObject }) < count },
  );
  return lines;
}

describe('the embedded API server serves WatchList with kube-apiserver semantics', () => {
  it('sends the state as ADDED events, then a bookmark marking their end at its resourceVersion', async () => {
    sim = await startSim({ pods: 3 });
    const rv = String(sim.cluster.store.currentRv());
    const lines = await rawWatch(
      { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true' },
      4,
    );
    expect(lines.slice(0, 3).map((line) => [line.type, line.object.metadata.name])).toEqual([
      ['ADDED', 'pod-000'],
      ['ADDED', 'pod-001'],
      ['ADDED', 'pod-002'],
    ]);
    expect(lines[3].type).toBe('BOOKMARK');
    expect(lines[3].object.metadata).toEqual({ resourceVersion: rv, annotations: { [INITIAL_EVENTS_END]: 'true' } });
  });

  it.each([
    [{ sendInitialEvents: 'true', allowWatchBookmarks: 'true' }, /resourceVersionMatch to NotOlderThan/],
    [{ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' }, /allowWatchBookmarks must be set/],
    [{ resourceVersionMatch: 'NotOlderThan' }, /forbidden for watch unless sendInitialEvents/],
  ])('refuses an incomplete request %j with 422 Invalid', async (query, message) => {
    sim = await startSim();
    const error = await rawWatch(query, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).code).toBe(422);
    expect((error as KubeApiError).message).toMatch(message);
  });
});

describe('the reflector syncs through WatchList where the server supports it', () => {
  it('makes no LIST: one watch brings the state, is synced at the end bookmark, then carries changes', async () => {
    sim = await startSim({ pods: 5 });
    const pods = observe(sim.transport, WATCH_LIST);
    observed = [pods];
    pods.reflector.start();
    expect(await pods.reflector.waitForSync(5_000)).toBe(true);
    expect(pods.lists()).toHaveLength(0);
    expect(pods.watches()).toHaveLength(1);
    expect(pods.watches()[0].query).toMatchObject({
      sendInitialEvents: 'true',
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: 'true',
    });
    expect(pods.watches()[0].query.resourceVersion).toBeUndefined();
    expect(pods.events.map((e) => e.type)).toEqual(['added', 'added', 'added', 'added', 'added', 'synced']);
    expect(pods.reflector.state()).toMatchObject({ status: 'synced', objects: 5 });
    expect(sim.transport.watchListSupport).toBe('supported');

    sim.cluster.client.create('pods', testPod('ns', 'later'));
    await until('the later pod', () => pods.reflector.cache.size === 6);
    // the same stream went on as the watch
    expect(pods.watches()).toHaveLength(1);
    expect(pods.reflector.state().counters).toMatchObject({ lists: 1, relists: 0 });
  });

  it('after a 410 the relist is a WatchList too, with synthetic events for what changed meanwhile', async () => {
    sim = await startSim({ pods: 2 });
    const pods = observe(sim.transport, WATCH_LIST);
    observed = [pods];
    pods.reflector.start();
    expect(await pods.reflector.waitForSync(5_000)).toBe(true);
    const kept = pods.reflector.cache.get('ns/pod-001');
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'expire', count: 1 });
    sim.served.dropConnections('destroy');
    sim.cluster.client.delete('pods', 'pod-000', 'ns');

    await until('the relist', () => pods.reflector.state().counters.relists === 1 && pods.reflector.cache.size === 1);
    await until('synced again', () => pods.reflector.state().status === 'synced');
    const relist = pods.watches().at(-1)!;
    expect(relist.query).toMatchObject({ sendInitialEvents: 'true' });
    expect(pods.lists()).toHaveLength(0);
    expect(pods.events.filter((e) => e.type === 'deleted')).toMatchObject([{ synthetic: true }]);
    // the pod the initial events repeat unchanged stays the cached object
    expect(pods.reflector.cache.get('ns/pod-001')).toBe(kept);
  });
});

describe('a server without WatchList', () => {
  it('gets LIST + WATCH after one refused attempt, remembered for every later reflector of the server', async () => {
    sim = await startSim({ pods: 3, server: { watchList: false } });
    const first = observe(sim.transport, WATCH_LIST);
    observed = [first];
    first.reflector.start();
    expect(await first.reflector.waitForSync(5_000)).toBe(true);
    await until('the watch after the list', () => first.watches().length === 2);
    expect(first.requests.map((r) => (r.query.sendInitialEvents ? 'watch-list' : r.verb))).toEqual([
      'watch-list',
      'list',
      'watch',
    ]);
    expect(first.reflector.state()).toMatchObject({ status: 'synced', objects: 3 });
    // the refusal is not an error the source shows
    expect(first.reflector.state().error).toBeUndefined();
    expect(sim.transport.watchListSupport).toBe('unsupported');

    const second = observe(sim.transport, { ...WATCH_LIST, resource: 'namespaces', namespace: undefined });
    observed.push(second);
    second.reflector.start();
    expect(await second.reflector.waitForSync(5_000)).toBe(true);
    await until('the watch after the list', () => second.watches().length === 1);
    expect(second.requests.map((r) => r.verb)).toEqual(['list', 'watch']);
  });
});
