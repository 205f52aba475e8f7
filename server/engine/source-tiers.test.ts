import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { ClusterEngine } from './cluster-engine';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { ScrapeSource } from '@/server/metrics/scrape-source';
import { HD_DRAIN_AT_MS } from '@/server/simulator/scenarios/high-density-drain';
import { MINUTE, SECOND } from '@/server/simulator/objects/time';
import { sourceUpToDate } from '@/lib/health/tiers';
import { UPSTREAM_OLMV1_NAMESPACE } from '@/lib/health/shared/olmv1-presence';

const HOLD_DOWN_MS = 1_500;

let server: TestServer | undefined;
let engine: ClusterEngine | undefined;

afterEach(async () => {
  engine?.stop();
  await server?.close();
  engine = undefined;
  server = undefined;
});

async function boot(): Promise<{ server: TestServer; engine: ClusterEngine }> {
  server = await startTestServer();
  runScenario(server.cluster, SCENARIOS.steady!);
  engine = new ClusterEngine({
    id: 'steady',
    name: 'steady',
    connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'),
    tiers: { holdDownMs: HOLD_DOWN_MS },
  });
  engine.start();
  return { server, engine };
}

/** Re-evaluates until `check` holds (a busy machine may take a while), failing with the last health otherwise. */
async function until(e: ClusterEngine, check: (health: ClusterHealthDto) => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    e.evaluateNow();
    const health = e.health();
    if (check(health)) return health;
    if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify({ activity: health.activity })}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The watches the engine holds open on the API server, as the server sees them. */
function openWatches(s: TestServer): string[] {
  return s.served.stats
    .snapshot()
    .activeRequests.filter((request) => /(^|&)watch=(true|1)(&|$)/.test(request.query))
    .map((request) => request.path);
}

const logGets = (s: TestServer) => s.served.stats.snapshot().requests['pods/log:get'] ?? 0;
const clusterWidePods = (health: ClusterHealthDto) =>
  health.sources.find((source) => source.resource === 'pods' && source.namespace === undefined);
const settledIdle = (health: ClusterHealthDto) =>
  health.activity?.tier === 'always' && health.sources.length > 0 && health.sources.every(sourceUpToDate);

describe('tiers of sources on one cluster', () => {
  it('a steady idle cluster holds no cluster-wide pod watch and polls no log', async () => {
    const { server: s, engine: e } = await boot();
    const health = await until(e, settledIdle, 'the steady cluster did not settle idle');
    expect(clusterWidePods(health)?.status).toBe('idle');
    // The always tier still watches the catalog namespaces' pods (failure mode A).
    expect(health.sources.some((source) => source.resource === 'pods' && source.status === 'synced')).toBe(true);
    expect(health.activity?.waiting.length).toBeGreaterThan(0);
    expect(openWatches(s)).not.toContain('/api/v1/pods');
    expect(logGets(s)).toBe(0);
    expect(e.snapshot().idle).toBe(true);
    // Idle, pod-setup latency is not claimed either way (no "no metrics source" note, no finding).
    expect(health.findings.filter((finding) => finding.detector === 'pod-setup-latency')).toStrictEqual([]);
    expect(health.findings.filter((f) => f.severity === 'warning' || f.severity === 'critical')).toStrictEqual([]);
  }, 60_000);

  it('sends no request to an upstream-only namespace on OpenShift, and states those sources not applicable', async () => {
    const { server: s, engine: e } = await boot();
    const health = await until(e, settledIdle, 'the idle cluster to settle');
    const upstream = health.sources.filter((source) => source.namespace === UPSTREAM_OLMV1_NAMESPACE);
    expect(upstream.map((source) => `${source.resource}: ${source.status}`).sort()).toEqual([
      'deployments: not-applicable',
      'leases: not-applicable',
      'pods: not-applicable',
    ]);
    expect(health.sources.every(sourceUpToDate)).toBe(true);
    expect(openWatches(s).some((path) => path.includes(UPSTREAM_OLMV1_NAMESPACE))).toBe(false);
  });

  it('turns active when a viewer looks, reads pods and logs, and goes idle after the hold-down', async () => {
    const { server: s, engine: e } = await boot();
    await until(e, settledIdle, 'the steady cluster did not settle idle');
    const release = e.view();
    const active = await until(
      e,
      (h) => h.activity?.tier === 'active' && clusterWidePods(h)?.status === 'synced',
      'a viewer did not make the cluster active',
    );
    expect(active.activity?.reasons).toContain('viewed');
    await waitFor(() => openWatches(s).includes('/api/v1/pods'), 'no cluster-wide pod watch on the API server');
    await until(e, () => logGets(s) > 0, 'the active tier polled no log');
    expect(e.snapshot().idle).toBeUndefined();
    release();
    // Held down: still active right after the viewer left.
    expect(e.active()).toBe(true);
    const idle = await until(
      e,
      (h) => h.activity?.tier === 'always',
      'the cluster did not go idle after the hold-down',
    );
    expect(clusterWidePods(idle)?.status).toBe('idle');
    await waitFor(() => !openWatches(s).includes('/api/v1/pods'), 'the pod watch stayed open on the API server');
    const polls = logGets(s);
    await until(e, settledIdle, 'the idle cluster did not settle');
    expect(e.snapshot().logs).toStrictEqual([]);
    expect(logGets(s)).toBe(polls);
  }, 60_000);

  it('turns active when a finding of warning or worse appears (the FeatureGate drops its version)', async () => {
    const { server: s, engine: e } = await boot();
    await until(e, settledIdle, 'the steady cluster did not settle idle');
    // Failure mode C on an idle cluster: the always tier watches the FeatureGate.
    const gate = s.cluster.client.get('featuregates', 'cluster');
    if (!gate) throw new Error('the steady story has no FeatureGate');
    s.cluster.client.updateStatus('featuregates', {
      ...gate,
      status: { ...(gate.status as object), featureGates: [] },
    });
    const active = await until(
      e,
      (h) => h.activity?.tier === 'active' && clusterWidePods(h)?.status === 'synced',
      'a finding did not make the cluster active',
    );
    expect(active.activity?.reasons).toContain('finding');
    expect(active.findings.some((f) => f.detector === 'featuregate-coverage' && f.severity === 'critical')).toBe(true);
    await waitFor(() => openWatches(s).includes('/api/v1/pods'), 'no cluster-wide pod watch on the API server');
  }, 60_000);

  it('with tiers off, every source runs on an idle cluster (as before tiers)', async () => {
    server = await startTestServer();
    runScenario(server.cluster, SCENARIOS.steady!);
    engine = new ClusterEngine({
      id: 'steady',
      name: 'steady',
      connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'),
      tiers: { enabled: false },
    });
    engine.start();
    const s = server;
    const health = await until(
      engine,
      // Upstream OLMv1's namespace does not apply on OpenShift, tiers or not.
      (h) => h.sources.length > 0 && h.sources.every((s) => s.status === 'synced' || s.status === 'not-applicable'),
      'did not sync',
    );
    expect(health.activity).toBeUndefined();
    await waitFor(() => openWatches(s).includes('/api/v1/pods'), 'no cluster-wide pod watch on the API server');
  }, 60_000);
});

describe('failure mode D through the engine with tiers on', () => {
  it('high-density-drain: a cordoned node turns the cluster active, the tier scrapes ovnkube and D is caught', async () => {
    server = await startTestServer({ seed: 11 });
    runScenario(server.cluster, SCENARIOS['high-density-drain']!);
    const s = server;
    const t0 = s.cluster.clock.now();
    const connection = createKubeConnection(s.kubeconfigPath('reader'), 'sim');
    let local = 1_000_000;
    // Scrapes are driven below on a local clock; the engine only starts and stops the source with its tier.
    const scrape = new ScrapeSource(connection, { intervalMs: 10 * SECOND, localNow: () => local });
    const started: boolean[] = [];
    engine = new ClusterEngine({
      id: 'hd',
      name: 'hd',
      connection,
      latency: () => scrape.latency(),
      alerts: () => scrape.alerts(),
      metrics: { start: () => started.push(true), stop: () => started.push(false), polled: () => true },
      tiers: { holdDownMs: HOLD_DOWN_MS },
    });
    engine.start();
    const e = engine;
    for (let at = 0; at < HD_DRAIN_AT_MS + 8 * MINUTE; at += 30 * SECOND) {
      s.cluster.clock.advance(30 * SECOND);
      await new Promise((resolve) => setTimeout(resolve, 10));
      local += 10 * SECOND;
      await scrape.scrapeOnce();
    }
    const health = await until(
      e,
      (h) => h.findings.some((f) => f.detector === 'pod-setup-latency' && f.severity === 'critical'),
      `the drain's pod-setup latency was not caught (${s.cluster.clock.now() - t0} ms in)`,
    );
    expect(health.activity?.tier).toBe('active');
    expect(health.activity?.reasons).toContain('draining');
    expect(started).toStrictEqual([true]);
  }, 120_000);
});
