import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { Fleet } from '@/server/engine/fleet';
import { parseExposition } from '@/lib/metrics/exposition';
import { ServiceMetrics } from './service-metrics';

let server: TestServer | undefined;
let fleet: Fleet | undefined;

afterEach(async () => {
  fleet?.stop();
  await server?.close();
  fleet = undefined;
  server = undefined;
});

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The value of one series of a Prometheus text exposition (`name` or `name{label="value"}`), or undefined. */
function sample(text: string, series: string): number | undefined {
  const [, name, label, wanted] = /^([^{]+)(?:\{(\w+)="([^"]*)"\})?$/.exec(series)!;
  return parseExposition(text).samples.find((s) => s.name === name && (!label || s.labels[label] === wanted))?.value;
}

describe('service metrics and readiness over a watched cluster', () => {
  it('is unsettled until the first sync, then exposes source states, watch events and process metrics', async () => {
    server = await startTestServer({ seed: 3 });
    runScenario(server.cluster, SCENARIOS.steady!);
    const engine = new ClusterEngine({
      id: 'steady',
      name: 'steady',
      connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'),
    });
    fleet = new Fleet([engine]);
    expect(fleet.unsettled()).toEqual(['steady']);
    engine.start();
    await until(() => fleet!.unsettled().length === 0);
    const metrics = new ServiceMetrics();
    metrics.observeFleet(() => fleet!.stats());
    const text = await metrics.exposition();
    const synced = sample(text, 'update_health_watch_sources{status="synced"}');
    expect(synced).toBe(engine.watchStats().statuses.length);
    expect(synced).toBeGreaterThan(5);
    // read from each source's status alone, as the sources the health states from their full states
    await until(() => engine.health().sources.filter((source) => source.status === 'synced').length === synced);
    const stated = engine.health().sources.filter((source) => !['idle', 'not-applicable'].includes(source.status));
    expect([...engine.watchStats().statuses].sort()).toEqual(stated.map((source) => source.status).sort());
    expect(sample(text, 'update_health_clusters')).toBe(1);
    // A steady cluster nobody looks at reads only its always tier.
    expect(sample(text, 'update_health_active_clusters')).toBe(0);
    expect(sample(text, 'update_health_watch_events_total')).toBeGreaterThan(0);
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE update_health_detector_evaluation_seconds histogram');
    // counters only move forward between scrapes
    const again = await metrics.exposition();
    expect(sample(again, 'update_health_watch_events_total')).toBeGreaterThanOrEqual(
      sample(text, 'update_health_watch_events_total')!,
    );
  }, 60_000);

  it('counts a cluster whose sources are refused (forbidden/unreachable) as settled', async () => {
    const engine = new ClusterEngine({
      id: 'gone',
      name: 'gone',
      connection: createKubeConnection(await unreachableKubeconfig(), 'sim'),
    });
    fleet = new Fleet([engine]);
    engine.start();
    await until(() => fleet!.unsettled().length === 0, 30_000);
    expect(engine.watchStats().statuses.every((status) => status === 'unreachable' || status === 'pending')).toBe(true);
  }, 60_000);
});

/** A kubeconfig pointing at a closed loopback port. */
async function unreachableKubeconfig(): Promise<string> {
  server = await startTestServer({ seed: 4 });
  const copy = join(mkdtempSync(join(tmpdir(), 'unreachable-')), 'kubeconfig.yaml');
  writeFileSync(copy, readFileSync(server.kubeconfigPath('reader')));
  await server.close();
  server = undefined;
  return copy;
}
