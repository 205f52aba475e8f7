/**
 * An idle cluster's controllers resync every few seconds; at a fleet's scale copying what they read each time was
 * most of the simulator's idle CPU. Their resyncs read the stored objects, and copy only what they write.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSimulatedCluster, runScenario } from './core';
import { scenarioNamed } from './scenarios/registry';
import { StoredEntry } from './store';

afterEach(() => vi.restoreAllMocks());

describe('an idle cluster', () => {
  it('resyncs without copying stored objects', () => {
    const cluster = createSimulatedCluster({ seed: 3 });
    runScenario(cluster, scenarioNamed('steady')!);
    // Past the first syncs (the CVO's first evaluation of conditional updates writes its status once).
    cluster.clock.advance(2 * 60_000);
    const copies = vi.spyOn(StoredEntry.prototype, 'copy');
    const rvBefore = cluster.store.currentRv();
    cluster.clock.advance(2 * 60_000);
    expect(cluster.store.currentRv(), 'nothing was written while idle').toBe(rvBefore);
    expect(copies).not.toHaveBeenCalled();
  });

  it('still copies what a client gets, so a caller may change it', () => {
    const cluster = createSimulatedCluster({ seed: 3 });
    runScenario(cluster, scenarioNamed('steady')!);
    const cv = cluster.client.get('clusterversions', 'version')!;
    (cv.spec as { channel?: string }).channel = 'changed-locally';
    expect((cluster.client.read('clusterversions', 'version')!.spec as { channel?: string }).channel).not.toBe(
      'changed-locally',
    );
  });
});
