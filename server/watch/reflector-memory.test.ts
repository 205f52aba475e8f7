/**
 * What a reflector keeps alive between requests. A fleet holds thousands of reflectors for hours; one that is
 * refused (RBAC, a missing API) waits minutes between retries, and must not hold the failure it waits on: a thrown
 * error keeps its stack frames' objects alive (kilobytes each), and only its plain-JSON summary is shown.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { KubeApiError } from './kube-errors';
import {
  observe,
  startSim,
  trackUnhandledRejections,
  until,
  type SimHarness,
} from '@/server/testing/reflector-harness';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const rejections = trackUnhandledRejections();
afterAll(() => {
  rejections.dispose();
  expect(rejections.seen).toEqual([]);
});

describe('a refused reflector waiting to retry', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 2 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('keeps the refusal as data and lets the thrown error go', async () => {
    sim.fault({ resource: 'pods', verb: 'list', kind: 'status', status: 403, count: 100 });
    const errors: WeakRef<object>[] = [];
    const getJson = sim.transport.getJson.bind(sim.transport);
    sim.transport.getJson = (async (...args: Parameters<typeof getJson>) => {
      try {
        return await getJson(...args);
      } catch (error) {
        if (error instanceof KubeApiError) errors.push(new WeakRef(error));
        throw error;
      }
    }) as typeof getJson;
    // a slow retry far longer than the test: the reflector sleeps through it
    const o = observe(sim.transport, { backoff: { initialMs: 60_000, maxMs: 120_000, resetAfterMs: 300_000 } });
    o.reflector.start();
    await until('the refusal to show', () => o.reflector.state().status === 'forbidden' && o.reflector.state().retryAt);
    expect(errors).toHaveLength(1);
    expect(o.reflector.state().error).toMatchObject({ code: 403, reason: 'Forbidden' });
    await until('the thrown error to be collected', () => {
      gc();
      return errors[0].deref() === undefined;
    });
    expect(o.reflector.state()).toMatchObject({ status: 'forbidden', error: { code: 403 } });
    o.reflector.stop();
  });
});
