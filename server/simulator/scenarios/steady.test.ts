import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { MINUTE } from '../objects/time';
import { steadyScenario } from './steady';

describe('steady scenario', () => {
  it('is a healthy 4.16 cluster', () => {
    const cluster = createSimulatedCluster({ seed: 7 });
    runScenario(cluster, steadyScenario);
    cluster.clock.advance(10 * MINUTE);
    const cv = cluster.client.get('clusterversions', 'version');
    expect(cv).toBeDefined();
    console.log(JSON.stringify(cv?.status, null, 1).slice(0, 1500));
  });
});
