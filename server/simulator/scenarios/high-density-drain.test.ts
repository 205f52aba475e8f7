import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { OVN_NAMESPACE, OVNKUBE_METRICS_PORT } from '../controllers/ovnkube';
import { diffBuckets, histogramQuantile, parseHistogram } from '../metrics/prometheus-text';
import { nodeName } from '../objects/nodes';
import { MINUTE } from '../objects/time';
import {
  HD_BATCHING_AT_MS,
  HD_DRAIN_AT_MS,
  HD_NAMESPACE,
  HD_SLOW_WINDOW,
  highDensityDrainScenario,
} from './high-density-drain';

const LATENCY = 'ovnkube_controller_pod_creation_latency_seconds';

function start(seed = 6) {
  const cluster = createSimulatedCluster({ seed });
  const startMs = cluster.clock.now();
  runScenario(cluster, highDensityDrainScenario);
  return { cluster, startMs };
}

type Cluster = ReturnType<typeof start>['cluster'];

async function scrape(cluster: Cluster, node: string): Promise<string> {
  const pod = cluster.client.list('pods', { namespace: OVN_NAMESPACE, fieldSelector: `spec.nodeName=${node}` })[0];
  await cluster.proxy.prepare('pods', OVN_NAMESPACE, pod.metadata.name);
  const response = cluster.proxy.handle('pods', OVN_NAMESPACE, pod.metadata.name, OVNKUBE_METRICS_PORT, '/metrics');
  expect(response?.status).toBe(200);
  return response!.body;
}

describe('high-density-drain scenario', () => {
  it('p99 pod-creation latency > 3 s during the drain and < 0.5 s once batching is on', async () => {
    const { cluster, startMs } = start();
    const worker = nodeName('worker', 0);
    const to = (ms: number) => cluster.clock.advance(startMs + ms - cluster.clock.now());

    to(HD_DRAIN_AT_MS);
    const before = parseHistogram(await scrape(cluster, worker), LATENCY);
    expect(before).toHaveLength(16);
    to(HD_DRAIN_AT_MS + 5 * MINUTE);
    const during = diffBuckets(parseHistogram(await scrape(cluster, worker), LATENCY), before);
    expect(histogramQuantile(0.99, during)).toBeGreaterThan(3);
    expect(
      cluster.client.list('pods', { namespace: HD_NAMESPACE, fieldSelector: `spec.nodeName=${nodeName('worker', 2)}` }),
    ).toHaveLength(0);

    to(HD_SLOW_WINDOW.toMs - 10 * MINUTE);
    const late = parseHistogram(await scrape(cluster, worker), LATENCY);
    to(HD_SLOW_WINDOW.toMs - 5 * MINUTE);
    expect(
      histogramQuantile(0.99, diffBuckets(parseHistogram(await scrape(cluster, worker), LATENCY), late)),
    ).toBeGreaterThan(3);

    to(HD_BATCHING_AT_MS + MINUTE);
    const batched = parseHistogram(await scrape(cluster, worker), LATENCY);
    to(HD_BATCHING_AT_MS + 6 * MINUTE);
    const text = await scrape(cluster, worker);
    expect(histogramQuantile(0.99, diffBuckets(parseHistogram(text, LATENCY), batched))).toBeLessThan(0.5);
    expect(text).toContain('ovnkube_controller_pod_batch_config{config_key="enabled"} 1');
    expect(text).toContain('ovnkube_controller_pod_batch_size_bucket');
    expect(text).toContain('ovnkube_controller_pod_operations_batched_total');
    expect(text).toContain('ovnkube_controller_pod_batch_processing_duration_seconds_bucket');
    expect(text).toContain('ovnkube_controller_pod_first_seen_lsp_created_duration_seconds_bucket');
    expect(text).toMatch(/ovnkube_node_cni_request_duration_seconds_bucket\{le="0\.1",command="ADD",err="false"\}/);
  });

  it('is deterministic for a seed', async () => {
    const a = start(12).cluster;
    const b = start(12).cluster;
    a.clock.advance(HD_DRAIN_AT_MS + 3 * MINUTE);
    b.clock.advance(HD_DRAIN_AT_MS + 3 * MINUTE);
    expect(JSON.stringify(a.client.list('pods'))).toBe(JSON.stringify(b.client.list('pods')));
    expect(await scrape(a, nodeName('worker', 1))).toBe(await scrape(b, nodeName('worker', 1)));
  });
});
