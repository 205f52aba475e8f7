/**
 * A source's status reaches whoever shows it as it changes: a refusal, a lost connection and the recovery from it
 * are told through `onStatus` (a sync through the handler's `synced` event), so nothing has to poll `state()`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe, startSim, until, type SimHarness } from '@/server/testing/reflector-harness';
import type { SourceStatus } from './source-state';

interface Told {
  status: SourceStatus;
  error: boolean;
  /** `synced` events delivered before this status change. */
  syncs: number;
}

describe('a reflector telling its status changes', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 2 });
  });
  afterEach(async () => {
    await sim.close();
  });

  function observeStatus() {
    const told: Told[] = [];
    const o = observe(sim.transport, {
      onStatus: () => {
        const state = o.reflector.state();
        told.push({ status: state.status, error: !!state.error, syncs: syncs() });
      },
    });
    const syncs = () => o.events.filter((event) => event.type === 'synced').length;
    return { o, told };
  }

  it('tells a refusal before the first sync, and the sync through its event only', async () => {
    sim.fault({ resource: 'pods', verb: 'list', kind: 'status', status: 403, count: 1 });
    const { o, told } = observeStatus();
    o.reflector.start();
    await until('the refusal to be told', () => told.length > 0);
    expect(told[0]).toEqual({ status: 'forbidden', error: true, syncs: 0 });
    await until('the retry to sync', () => o.events.some((event) => event.type === 'synced'), 10_000);
    expect(told).toEqual([{ status: 'forbidden', error: true, syncs: 0 }]);
    expect(o.reflector.state().status).toBe('synced');
    o.reflector.stop();
  });

  it('tells a refusal after the first sync, the moment its watch is refused', async () => {
    const { o, told } = observeStatus();
    o.reflector.start();
    await until('the first sync', () => o.events.some((event) => event.type === 'synced'));
    expect(told).toEqual([]);
    sim.fault({ resource: 'pods', verb: 'any', kind: 'status', status: 403 });
    sim.served.dropConnections('destroy');
    await until('the refusal to be told', () => told.some((entry) => entry.status === 'forbidden'));
    expect(o.reflector.state().status).toBe('forbidden');
    o.reflector.stop();
  });

  it('tells nothing of a lost watch resumed while the cache stays fresh, and tells the staleness that follows', async () => {
    const { o, told } = observeStatus();
    o.reflector.start();
    await until('the first sync', () => o.events.some((event) => event.type === 'synced'));
    sim.served.dropConnections('destroy');
    // A reconnect: the failure is shown on the source, the status stays synced, nobody needs to evaluate again.
    await until('the watch to resume', () => o.watches().length >= 2 && !o.reflector.state().error, 10_000);
    expect(told).toEqual([]);
    // The server stops answering: once the cache is older than the staleness threshold, the source says so.
    sim.fault({ resource: 'pods', verb: 'any', kind: 'status', status: 503 });
    sim.served.dropConnections('destroy');
    await until('the staleness to be told', () => told.length > 0, 10_000);
    expect(told[0]).toEqual({ status: 'stale', error: true, syncs: 1 });
    expect(o.reflector.state().status).toBe('stale');
    o.reflector.stop();
  }, 20_000);

  it('goes on syncing when the listener throws, and counts it as a handler error', async () => {
    let calls = 0;
    const o = observe(sim.transport, {
      onStatus: () => {
        calls += 1;
        throw new Error('listener failed');
      },
    });
    sim.fault({ resource: 'pods', verb: 'list', kind: 'status', status: 500, count: 1 });
    o.reflector.start();
    await until('the sync after the failure', () => o.events.some((event) => event.type === 'synced'), 10_000);
    expect(calls).toBe(1);
    expect(o.reflector.state().counters.handlerErrors).toBe(1);
    o.reflector.stop();
  });
});
