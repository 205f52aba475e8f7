import { describe, expect, it } from 'vitest';
import { isLeaseRenewal } from '@/lib/health/shared/workload-math';
import { createSimulatedCluster, runScenario } from '../core';
import { CATALOGD_DEPLOYMENT, CATALOGD_LEASE, CATALOGD_NAMESPACE, CATALOGD_PORT } from '../objects/olm';
import { nodeName } from '../objects/nodes';
import { MINUTE, SECOND } from '../objects/time';
import {
  CATALOGD_DRAIN_BLOCKED_WINDOW,
  CATALOGD_GAP_WINDOW,
  CATALOGD_SETTLED_BY_MS,
  catalogdRolloutScenario,
} from './catalogd-rollout';

function start(seed = 5) {
  const cluster = createSimulatedCluster({ seed });
  starts.set(cluster, cluster.clock.now());
  runScenario(cluster, catalogdRolloutScenario);
  return cluster;
}

type Cluster = ReturnType<typeof start>;

const starts = new WeakMap<object, number>();
function startMs(cluster: Cluster): number {
  return starts.get(cluster)!;
}

const catalogPath = '/catalogs/openshift-redhat-operators/api/v1/all';

function deploymentStatus(cluster: Cluster) {
  return cluster.client.get('deployments', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE)!.status as {
    readyReplicas: number;
    availableReplicas: number;
    replicas: number;
  };
}

function olmAvailable(cluster: Cluster): string | undefined {
  const co = cluster.client.get('clusteroperators', 'olm');
  return (co?.status as { conditions: { type: string; status: string }[] }).conditions.find(
    (c) => c.type === 'Available',
  )?.status;
}

function catalogdPods(cluster: Cluster) {
  return cluster.client
    .list('pods', { namespace: CATALOGD_NAMESPACE, labelSelector: `control-plane=${CATALOGD_DEPLOYMENT}` })
    .filter((pod) => !pod.metadata.deletionTimestamp);
}

describe('catalogd-rollout scenario', () => {
  it('tells the story: rollout gap, blocked drain, then leader 200 / non-leader 404', () => {
    const cluster = start();
    cluster.clock.advance(MINUTE);
    expect(deploymentStatus(cluster).readyReplicas).toBe(1);
    expect(olmAvailable(cluster)).toBe('True');

    cluster.clock.advance(CATALOGD_GAP_WINDOW.fromMs + 30_000 - MINUTE);
    expect(deploymentStatus(cluster).readyReplicas).toBe(0);
    expect(olmAvailable(cluster)).toBe('False');
    cluster.clock.advance(CATALOGD_GAP_WINDOW.toMs - CATALOGD_GAP_WINDOW.fromMs + 30_000);
    expect(deploymentStatus(cluster).readyReplicas).toBe(1);
    expect(olmAvailable(cluster)).toBe('True');

    const drained = nodeName('master', 1);
    cluster.clock.advance(CATALOGD_DRAIN_BLOCKED_WINDOW.fromMs + MINUTE - cluster.clock.now() + startMs(cluster));
    for (const step of [0, 55 * MINUTE]) {
      cluster.clock.advance(step);
      const pdb = cluster.client.get('poddisruptionbudgets', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE)!;
      expect(pdb.status).toMatchObject({
        currentHealthy: 1,
        desiredHealthy: 1,
        disruptionsAllowed: 0,
        expectedPods: 1,
      });
      expect((cluster.client.get('nodes', drained)!.spec as { unschedulable?: boolean }).unschedulable).toBe(true);
      const pods = catalogdPods(cluster);
      expect(pods).toHaveLength(1);
      expect((pods[0].spec as { nodeName: string }).nodeName).toBe(drained);
    }

    cluster.clock.advance(CATALOGD_SETTLED_BY_MS - cluster.clock.now() + startMs(cluster));
    const pods = catalogdPods(cluster);
    expect(pods).toHaveLength(2);
    expect(deploymentStatus(cluster).readyReplicas).toBe(2);
    expect(pods.every((pod) => (pod.spec as { nodeName: string }).nodeName !== drained)).toBe(true);
    const pdb = cluster.client.get('poddisruptionbudgets', CATALOGD_DEPLOYMENT, CATALOGD_NAMESPACE)!;
    expect((pdb.status as { disruptionsAllowed: number }).disruptionsAllowed).toBe(1);
    const lease = cluster.client.get('leases', CATALOGD_LEASE, CATALOGD_NAMESPACE)!;
    const holder = (lease.spec as { holderIdentity: string }).holderIdentity;
    const leader = pods.find((pod) => holder.startsWith(`${pod.metadata.name}_`))!;
    const follower = pods.find((pod) => pod !== leader)!;
    expect(leader).toBeDefined();
    expect(
      cluster.proxy.handle('pods', CATALOGD_NAMESPACE, leader.metadata.name, CATALOGD_PORT, catalogPath)?.status,
    ).toBe(200);
    expect(
      cluster.proxy.handle('pods', CATALOGD_NAMESPACE, follower.metadata.name, CATALOGD_PORT, catalogPath)?.status,
    ).toBe(404);
  });

  it('renews the leader Lease every 26 s as controller-runtime does: renewTime moves, nothing else', () => {
    const cluster = start();
    cluster.clock.advance(CATALOGD_SETTLED_BY_MS);
    const lease = () => cluster.client.get('leases', CATALOGD_LEASE, CATALOGD_NAMESPACE)!;
    for (let renewals = 0; renewals < 3; renewals += 1) {
      const before = lease();
      cluster.clock.advance(26 * SECOND);
      const after = lease();
      expect(after.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
      // A Lease has no metadata.generation: its API strategy never sets one.
      expect(after.metadata.generation).toBeUndefined();
      expect(isLeaseRenewal(before, after)).toBe(true);
    }
  });

  it('is deterministic for a seed', () => {
    const a = start(9);
    const b = start(9);
    a.clock.advance(CATALOGD_DRAIN_BLOCKED_WINDOW.fromMs + MINUTE);
    b.clock.advance(CATALOGD_DRAIN_BLOCKED_WINDOW.fromMs + MINUTE);
    for (const resource of [
      'deployments',
      'pods',
      'poddisruptionbudgets',
      'leases',
      'clusteroperators',
      'nodes',
    ] as const) {
      expect(JSON.stringify(a.client.list(resource))).toBe(JSON.stringify(b.client.list(resource)));
    }
  });
});
