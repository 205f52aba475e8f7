/** A request ended through a {@link RequestCancel}, against the served simulator: an open watch and a later one. */
import { describe, expect, it } from 'vitest';
import { startSim, until, cleanupAfterEach, type SimHarness } from '@/server/testing/reflector-harness';
import { KubeTransportError } from './kube-errors';
import { RequestCancel } from './request-cancel';

let sim: SimHarness | undefined;
cleanupAfterEach(() => ({ sim }));

function openWatches(): number {
  return sim!.served.stats.snapshot().activeRequests.filter((r) => /(^|&)watch=true/.test(r.query)).length;
}

describe('RequestCancel', () => {
  it('ends an open watch as an aborted signal does, and the server sees the stream go', async () => {
    sim = await startSim({ pods: 2 });
    const cancel = new RequestCancel();
    let opened = false;
    const watch = sim.transport.stream(
      '/api/v1/namespaces/ns/pods',
      { watch: 'true' },
      { cancel, onOpen: () => (opened = true), onLine: () => true },
    );
    await until('the watch to be open', () => opened && openWatches() === 1);
    cancel.abort();
    const error = await watch.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeTransportError);
    expect((error as KubeTransportError).failure).toBe('aborted');
    await until('the server to end the stream', () => openWatches() === 0);
  });

  it('ends at once a request started after it was cancelled', async () => {
    sim = await startSim({ pods: 1 });
    const cancel = new RequestCancel();
    cancel.abort();
    await expect(
      sim.transport.stream('/api/v1/namespaces/ns/pods', { watch: 'true' }, { cancel, onLine: () => true }),
    ).rejects.toMatchObject({ failure: 'aborted' });
    expect(openWatches()).toBe(0);
  });
});
