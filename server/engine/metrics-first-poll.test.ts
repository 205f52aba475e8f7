/**
 * "No metrics source for pod-setup latency" is said once the cluster's metrics source looked and found none, not
 * while its first poll is under way. A cluster turns active (an update starts, a viewer opens it) and starts its
 * scrapes then: before this, every such moment opened the finding for the length of one scrape, and the history kept
 * an episode of it.
 */
import { afterEach, expect, it } from 'vitest';
import { OVN_NAMESPACE } from '@/server/simulator/controllers/ovnkube';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ClusterConnection } from '@/server/kube/connection';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { ScrapeSource } from '@/server/metrics/scrape-source';
import { until } from '@/server/testing/reflector-harness';
import { ClusterEngine } from './cluster-engine';

const NO_METRICS = 'pod-setup-latency:Metric//ovnkube_controller_pod_creation_latency_seconds:no-metrics-source';

let server: TestServer | undefined;
let engine: ClusterEngine | undefined;
let scrape: ScrapeSource | undefined;

afterEach(async () => {
  engine?.stop();
  scrape?.stop();
  await server?.close();
  engine = undefined;
  scrape = undefined;
  server = undefined;
});

/** `connection` whose plain GETs (the scrapes) wait until `release` is called; its watches run as they come. */
function heldGets(connection: ClusterConnection): { connection: ClusterConnection; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    connection: {
      ...connection,
      getText: async (path, options) => released.then(() => connection.getText(path, options)),
    },
    release,
  };
}

it('says "no metrics source" only once the first scrape ended, and finds it then', async () => {
  server = await startTestServer();
  runScenario(server.cluster, SCENARIOS['catalogd-rollout']!);
  // Without its ovnkube pods, once looked at, the cluster has no metrics source.
  const { client } = server.cluster;
  for (const pod of client.list('pods', { namespace: OVN_NAMESPACE }))
    client.delete('pods', pod.metadata.name, OVN_NAMESPACE);
  expect(client.list('pods', { namespace: OVN_NAMESPACE })).toEqual([]);
  const real = createKubeConnection(server.kubeconfigPath('reader'), 'sim');
  const { connection, release } = heldGets(real);
  const source = (scrape = new ScrapeSource(connection, { intervalMs: 60_000 }));
  engine = new ClusterEngine({
    id: 'sim',
    name: 'sim',
    connection: real,
    latency: () => source.latency(),
    metrics: source,
    pollScale: 100_000,
  });
  let settled = false;
  engine.onFirstSync(() => (settled = true));
  engine.start();
  // A viewer: the active tier starts, and with it the scrapes, whose first one waits.
  const leave = engine.view();
  const running = engine;
  await until('the first sync, active tier included', () => settled, 20_000);
  await until('an evaluation of the active tier', () => running.health().activity?.tier === 'active', 10_000);
  expect(source.polled()).toBe(false);
  expect(running.health().findings.map((finding) => finding.id)).not.toContain(NO_METRICS);

  release();
  await until('the first scrape to end', () => source.polled(), 10_000);
  engine.view()();
  await until('"no metrics source", now that it is known', () =>
    running.health().findings.some((finding) => finding.id === NO_METRICS),
  );
  leave();
});
