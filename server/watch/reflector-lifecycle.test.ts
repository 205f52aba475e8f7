import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testPod } from '@/server/simulator/test-objects';
import { Reflector } from './reflector';
import {
  FAST,
  observe,
  sleep,
  startSim,
  trackUnhandledRejections,
  until,
  type SimHarness,
} from '@/server/testing/reflector-harness';

const rejections = trackUnhandledRejections();
afterAll(() => {
  rejections.dispose();
  expect(rejections.seen).toEqual([]);
});

describe('reflector lifecycle', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 3 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('lists, emits adds then synced, follows the watch, and caches slim projections', async () => {
    const o = observe(sim.transport);
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    expect(o.events.map((e) => e.type)).toEqual(['added', 'added', 'added', 'synced']);
    expect(o.lists()[0].query).toMatchObject({ limit: 500 });
    await until('the watch', () => o.watches().length === 1);
    const watch = o.watches()[0].query;
    expect(watch).toMatchObject({
      watch: 'true',
      allowWatchBookmarks: 'true',
      resourceVersion: o.reflector.state().resourceVersion,
    });
    expect(Number(watch.timeoutSeconds)).toBeGreaterThanOrEqual(300);
    expect(Number(watch.timeoutSeconds)).toBeLessThanOrEqual(600);
    sim.cluster.client.create('pods', testPod('ns', 'live', { containers: ['a', 'b'] }));
    sim.cluster.client.patch(
      'pods',
      'live',
      { status: { phase: 'Failed' } },
      { namespace: 'ns', subresource: 'status' },
    );
    sim.cluster.client.delete('pods', 'pod-000', 'ns');
    await until('the delete', () => o.events.some((e) => e.type === 'deleted'));
    expect(
      o.events.slice(4).map((e) => (e.type === 'synced' ? e.type : `${e.type}:${e.object.metadata.name}`)),
    ).toEqual(['added:live', 'modified:live', 'deleted:pod-000']);
    const live = o.reflector.cache.getByName('live', 'ns');
    expect(live?.spec).toEqual({ nodeName: 'worker-0', containers: [{ name: 'a' }, { name: 'b' }] });
    expect(live?.metadata.managedFields).toBeUndefined();
    expect(o.reflector.state()).toMatchObject({ resource: 'pods', namespace: 'ns', status: 'synced', objects: 3 });
    o.reflector.stop();
  });

  it('R11: stop() during connect aborts the request; nothing is sent afterwards', async () => {
    sim.fault({ resource: 'pods', verb: 'list', kind: 'hang' });
    const o = observe(sim.transport, { headerTimeoutMs: 5_000 });
    o.reflector.start();
    await until('the hung list on the server', async () => (await sim.activeRequests('/pods')).length === 1);
    const waiting = o.reflector.waitForSync();
    o.reflector.stop();
    expect(await waiting).toBe(false);
    await until('no request left', async () => (await sim.activeRequests('/pods')).length === 0);
    await sleep(500);
    expect(o.requests).toHaveLength(1);
    expect(await sim.activeRequests('/pods')).toHaveLength(0);
  });

  it('R11: start() twice keeps exactly one request in flight', async () => {
    const o = observe(sim.transport);
    o.reflector.start();
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    o.reflector.start();
    await sleep(400);
    expect(o.lists()).toHaveLength(1);
    expect(o.watches()).toHaveLength(1);
    const active = await sim.activeRequests('/pods');
    expect(active).toHaveLength(1);
    o.reflector.stop();
    await until('no request left', async () => (await sim.activeRequests('/pods')).length === 0);
  });

  it('R11: stop() then the in-flight request failing, or a handler calling start(), resurrects nothing', async () => {
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'status', status: 500, count: 1 });
    const ref: { current?: Reflector } = {};
    const o = observe(sim.transport, {
      handler: () => ref.current?.start(),
      backoff: { initialMs: 300, maxMs: 1_000 },
    });
    ref.current = o.reflector;
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    // stopped while waiting out the backoff after the 500
    await until('the 500', () => o.reflector.state().error?.code === 500);
    o.reflector.stop();
    const sent = o.requests.length;
    await sleep(800);
    expect(o.requests).toHaveLength(sent);

    // stopped while a watch hangs: its abort error arrives after stop()
    sim.clearFaults();
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'hang' });
    const p = observe(sim.transport, { headerTimeoutMs: 300 });
    p.reflector.start();
    expect(await p.reflector.waitForSync(3_000)).toBe(true);
    await until('the hung watch', () => p.watches().length === 1);
    p.reflector.stop();
    p.reflector.start();
    await sleep(800);
    expect(p.watches()).toHaveLength(1);
    expect(p.lists()).toHaveLength(1);
    await until('no request left', async () => (await sim.activeRequests('/pods')).length === 0);
  });

  it('leaves no timers or sockets that keep a stopped reflector busy', async () => {
    const reflector = new Reflector({ transport: sim.transport, resource: 'namespaces', ...FAST });
    reflector.start();
    expect(await reflector.waitForSync(3_000)).toBe(true);
    reflector.stop();
    expect(reflector.state().retryAt).toBeUndefined();
    await until('no request left', async () => (await sim.activeRequests('/namespaces')).length === 0);
  });
});
