import { describe, expect, it } from 'vitest';
import { conditionsOf } from '@/lib/k8s/conditions';
import { createSimulatedCluster, runScenario } from '../core';
import { MINUTE, SECOND } from '../objects/time';
import {
  UIP_SLOW_DRAIN_FROM_MS,
  UIP_WORKERS_DONE_BY_MS,
  updateInProgressScenario,
} from '../scenarios/update-in-progress';
import { CVO_RESYNC_MS } from './cluster-version-operator';
import { POOL_UPDATING_MESSAGE } from './machine-config';

describe('machine-config operator Upgradeable', () => {
  it('is False (PoolUpdating) while a pool updates, reaches the ClusterVersion, and returns to True when done', () => {
    const cluster = createSimulatedCluster({ seed: 2 });
    const startMs = cluster.clock.now();
    runScenario(cluster, updateInProgressScenario);
    const to = (ms: number) => cluster.clock.advance(startMs + ms - cluster.clock.now());
    const upgradeable = (resource: 'clusteroperators' | 'clusterversions', name: string) =>
      conditionsOf(cluster.client.get(resource, name)!).find((c) => c.type === 'Upgradeable');

    to(MINUTE);
    expect(upgradeable('clusteroperators', 'machine-config')).toMatchObject({ status: 'True', reason: 'AsExpected' });
    expect(upgradeable('clusterversions', 'version')).toBeUndefined();

    to(UIP_SLOW_DRAIN_FROM_MS + 2 * MINUTE);
    const updating = conditionsOf(cluster.client.get('machineconfigpools', 'worker')!);
    expect(updating.find((c) => c.type === 'Updating')?.status).toBe('True');
    expect(upgradeable('clusteroperators', 'machine-config')).toMatchObject({
      status: 'False',
      reason: 'PoolUpdating',
      message: POOL_UPDATING_MESSAGE,
    });
    expect(POOL_UPDATING_MESSAGE).toBe(
      'One or more machine config pools are updating, please see `oc get mcp` for further details',
    );
    expect(upgradeable('clusterversions', 'version')).toMatchObject({
      status: 'False',
      reason: 'PoolUpdating',
      message:
        'Cluster operator machine-config should not be upgraded between minor versions: ' + POOL_UPDATING_MESSAGE,
    });

    to(UIP_WORKERS_DONE_BY_MS + CVO_RESYNC_MS + SECOND);
    for (const pool of cluster.client.list('machineconfigpools')) {
      expect(conditionsOf(pool).find((c) => c.type === 'Updating')?.status).toBe('False');
    }
    expect(upgradeable('clusteroperators', 'machine-config')).toMatchObject({ status: 'True', reason: 'AsExpected' });
    expect(upgradeable('clusterversions', 'version')).toBeUndefined();
  });
});
