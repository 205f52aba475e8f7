import { afterEach, describe, expect, it } from 'vitest';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { DEFAULT_HEALTH_CONFIG, type Snapshot } from '@/lib/health/types';
import { podSetupLatency } from '@/lib/health/detectors/pod-setup-latency/pod-setup-latency';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import {
  HD_BATCH_CONFIG,
  HD_DRAIN_AT_MS,
  highDensityDrainScenario,
} from '@/server/simulator/scenarios/high-density-drain';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { sleep, until } from '@/server/testing/reflector-harness';
import { AlertsPoller, inClusterAlerts } from './alerts-poller';
import { ScrapeSource } from './scrape-source';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const macrotask = () => new Promise((resolve) => setTimeout(resolve, 0));

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connect(scenario: NonNullable<(typeof SCENARIOS)[keyof typeof SCENARIOS]>) {
  server = await startTestServer({ seed: 11 });
  runScenario(server.cluster, scenario);
  const t0 = server.cluster.clock.now();
  return { connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'), t0, cluster: server.cluster };
}

describe('ScrapeSource against the embedded cluster', () => {
  it('computes p99 per node from ovnkube scrapes: critical during the drain, batching reported after', async () => {
    const { connection, t0, cluster } = await connect(highDensityDrainScenario);
    let local = 1_000_000;
    const source = new ScrapeSource(connection, { intervalMs: 10 * SECOND, localNow: () => local });
    expect(source.latency()).toBeUndefined();
    // one scrape per 30 s of virtual time, local time 10 s apart: a 40 s window spans 2 min of virtual time
    const runTo = async (virtualMs: number) => {
      while (cluster.clock.now() - t0 < virtualMs) {
        cluster.clock.advance(30 * SECOND);
        await macrotask();
        local += 10 * SECOND;
        await source.scrapeOnce();
      }
    };
    await runTo(HD_DRAIN_AT_MS - 30 * SECOND);
    const calm = source.latency()!;
    expect(calm.source).toBe('scrape');
    expect(calm.quantiles.p99.at(-1)!.v).toBeLessThan(0.5);
    await runTo(HD_DRAIN_AT_MS + 8 * MINUTE);
    const latency = source.latency()!;
    const p99 = latency.quantiles.p99.at(-1)!;
    expect(p99.v).toBeGreaterThan(3);
    expect(Object.keys(latency.perNode!).length).toBeGreaterThanOrEqual(3);
    const findings = podSetupLatency.detect(
      { objects: {}, transitions: [], logs: [], probes: [], latency } as Snapshot,
      { now: p99.t, config: DEFAULT_HEALTH_CONFIG },
    ).findings;
    expect(findings.map((f) => `${f.severity}:${f.subject.kind}`)).toEqual(
      expect.arrayContaining(['critical:Metric', 'critical:Node']),
    );

    const range = await source.podSetupLatency('hd', { from: 0, to: Number.MAX_SAFE_INTEGER, stepSeconds: 1 });
    const last = range.quantiles.p99.at(-1)!;
    expect(last.lower).toBeLessThan(last.v!);
    expect(last.v!).toBeLessThanOrEqual(last.upper ?? Infinity);
    expect(range.window).toBe(40);

    await runTo(82 * MINUTE);
    expect(source.latency()!.batch?.config).toEqual({
      enabled: 1,
      window_ms: HD_BATCH_CONFIG.windowMs,
      batch_size: HD_BATCH_CONFIG.batchSize,
      parallel_batches: HD_BATCH_CONFIG.parallelBatches,
    });
    expect(source.latency()!.quantiles.p99.at(-1)!.v).toBeLessThan(0.5);
    connection.close();
  }, 30_000);

  it('says it polled once a round of the current start ended; a round of an earlier start neither counts nor loops', async () => {
    const { connection: real } = await connect(highDensityDrainScenario);
    // Each pod list (the first step of a round) waits until the test lets it go, in order.
    const lists: (() => void)[] = [];
    const held = {
      ...real,
      getText: async (...args: Parameters<typeof real.getText>) => {
        if (args[0].endsWith('/pods')) await new Promise<void>((resolve) => lists.push(resolve));
        return real.getText(...args);
      },
    };
    const source = new ScrapeSource(held, { intervalMs: 20 });
    expect(source.polled()).toBe(false);
    source.start();
    await until('the first round to list pods', () => lists.length === 1);
    source.stop();
    source.start();
    await until("the second start's round to list pods", () => lists.length === 2);

    lists[0]();
    // The first start's round ends: it is no poll of this start, and its loop ends there.
    await sleep(200);
    expect(source.polled()).toBe(false);
    expect(lists).toHaveLength(2);

    lists[1]();
    await until("the second start's round to end", () => source.polled());
    await until('its next round', () => lists.length === 3);
    source.stop();
    expect(source.polled()).toBe(false);
    for (const release of lists) release();
    real.close();
  });

  it('treats a cluster without thanos-querier as "no alerts source" (404/503 are data)', async () => {
    const { connection } = await connect(highDensityDrainScenario);
    const poller = new AlertsPoller(inClusterAlerts(connection), 60_000);
    await poller.tick();
    expect(poller.state()).toMatchObject({ state: 'absent' });
    expect(poller.alerts()).toBeUndefined();
    connection.close();
  });

  it('feeds alerts from the in-cluster thanos-querier into update progress', async () => {
    const { connection, t0, cluster } = await connect(SCENARIOS['update-in-progress']!);
    cluster.clock.advance(36 * MINUTE);
    const poller = new AlertsPoller(inClusterAlerts(connection), 60_000);
    await poller.tick();
    const alerts = poller.alerts()!;
    expect(alerts.find((a) => a.name === 'ClusterOperatorDegraded')).toMatchObject({
      state: 'firing',
      severity: 'warning',
      labels: { name: 'authentication' },
    });
    const objects = {
      clusterversions: cluster.client.list('clusterversions'),
      clusteroperators: cluster.client.list('clusteroperators'),
      machineconfigpools: cluster.client.list('machineconfigpools'),
      machineconfigs: cluster.client.list('machineconfigs'),
      nodes: cluster.client.list('nodes'),
    };
    const { health } = assessCluster({
      id: 'uip',
      name: 'uip',
      sources: [],
      snapshot: { objects, transitions: [], logs: [], probes: [], alerts },
      context: { now: t0 + 36 * MINUTE, config: DEFAULT_HEALTH_CONFIG },
    });
    expect(
      health.updateProgress?.insights
        .map((i) => i.subject as { kind?: string; name?: string } | undefined)
        .filter((s) => s?.kind === 'Alert')
        .map((s) => s?.name),
    ).toContain('ClusterOperatorDegraded');
    connection.close();
  });
});
