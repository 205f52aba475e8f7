/**
 * What an open watch keeps of its request's URL, read from a heap snapshot of this process: the URL's `href`, and
 * with it every string sliced from it, is let go once the request is open, over either protocol. A fleet's watches
 * stay open for hours, each would keep a URL of a few hundred bytes.
 */
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { json } from 'node:stream/consumers';
import { getHeapSnapshot } from 'node:v8';
import { heapStrings, type HeapSnapshotJson } from '@/server/bench/heap-summary';
import { startSim, until, cleanupAfterEach, type SimHarness } from '@/server/testing/reflector-harness';
import type { KubeTransportOptions } from './kube-transport';
import { RequestCancel } from './request-cancel';

let sim: SimHarness | undefined;
cleanupAfterEach(() => ({ sim }));

describe.each([
  ['HTTP/1.1', { http2: false }],
  ['HTTP/2', {}],
] satisfies [string, KubeTransportOptions][])('an open watch over %s', (_, transport) => {
  it('keeps no string holding its whole URL', async () => {
    sim = await startSim({ pods: 1, transport });
    const marker = `marker-${randomUUID()}`;
    const cancel = new RequestCancel();
    const watching = sim.transport.stream(
      '/api/v1/namespaces/ns/pods',
      { watch: true, labelSelector: `app!=${marker}` },
      { cancel, onLine: () => true },
    );
    await until('the watch to be open', () =>
      sim!.served.stats.snapshot().activeRequests.some((r) => r.query.includes(marker)),
    );
    const server = sim.transport.server;
    const snapshot = (await json(getHeapSnapshot())) as HeapSnapshotJson;
    const urls = heapStrings(snapshot, (text) => text.startsWith(server) && text.includes(marker));
    expect(urls).toEqual([]);

    cancel.abort();
    await expect(watching).rejects.toMatchObject({ failure: 'aborted' });
  });
});
