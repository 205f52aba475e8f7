import { afterEach, describe, expect, it } from 'vitest';
import { parseExposition } from '@/lib/metrics/exposition';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import {
  UIP_CONTROL_PLANE_DONE_BY_MS,
  UIP_UPDATE_REQUESTED_AT_MS,
  UIP_WORKERS_DONE_BY_MS,
} from '@/server/simulator/scenarios/update-in-progress';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ScenarioName } from '@/server/simulator/types';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { Fleet, reportToMetrics } from '@/server/engine/fleet';
import { SCENARIO_NAMES } from '@/server/simulator/types';
import { assess, scenarioSnapshot } from '@/server/testing/rollback-fixtures';
import { DETECTORS } from '@/lib/health/registry';
import { ServiceMetrics } from './service-metrics';

const MINUTE = 60_000;
let servers: TestServer[] = [];
let fleet: Fleet | undefined;
let unsubscribe: (() => void) | undefined;

afterEach(async () => {
  unsubscribe?.();
  fleet?.stop();
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
  fleet = undefined;
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function watched(names: ScenarioName[]): Promise<{ metrics: ServiceMetrics; engines: ClusterEngine[] }> {
  const engines: ClusterEngine[] = [];
  for (const name of names) {
    const server = await startTestServer({ seed: 5 });
    servers.push(server);
    runScenario(server.cluster, SCENARIOS[name]!);
    engines.push(
      new ClusterEngine({ id: name, name, connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim') }),
    );
  }
  fleet = new Fleet(engines);
  const metrics = new ServiceMetrics();
  unsubscribe = reportToMetrics(fleet, metrics, 'https://update-health.apps.example.com/');
  for (const engine of engines) engine.start();
  await until(() => fleet!.unsettled().length === 0);
  return { metrics, engines };
}

const samples = async (metrics: ServiceMetrics, name: string) =>
  parseExposition(await metrics.exposition()).samples.filter((s) => s.name === name);

describe('health signals on /metrics', () => {
  it('export each active finding kind, the update phase and completion, and the public URL', async () => {
    const { metrics, engines } = await watched(['cross-minor-rollback', 'steady']);
    const [rollback] = engines;
    servers[0].cluster.clock.advance(SCENARIOS['cross-minor-rollback']!.failureAtMs + MINUTE);
    await until(async () => {
      rollback.evaluateNow();
      return (await samples(metrics, 'update_health_finding')).some((s) => s.labels.severity === 'critical');
    });
    const findings = await samples(metrics, 'update_health_finding');
    expect(findings).toContainEqual({
      name: 'update_health_finding',
      labels: {
        cluster: 'cross-minor-rollback',
        detector: 'status-write-rejection',
        failure_mode: 'B',
        severity: 'critical',
      },
      value: 1,
    });
    // one series per kind: as many as distinct (detector, severity) pairs among the active findings
    const active = rollback.health().findings.filter((f) => f.severity !== 'ok');
    const kinds = new Set(active.map((f) => `${f.detector}/${f.severity}`));
    expect(findings.filter((s) => s.labels.cluster === 'cross-minor-rollback')).toHaveLength(kinds.size);
    expect(
      findings.every((s) => Object.keys(s.labels).sort().join() === 'cluster,detector,failure_mode,severity'),
    ).toBe(true);
    const phases = await samples(metrics, 'update_health_cluster_update_phase');
    expect(phases.map((s) => s.labels.cluster).sort()).toEqual(['cross-minor-rollback', 'steady']);
    expect(phases.find((s) => s.labels.cluster === 'steady')?.labels.phase).toBe('idle');
    const completion = await samples(metrics, 'update_health_cluster_update_completion_ratio');
    expect(completion).toContainEqual({
      name: 'update_health_cluster_update_completion_ratio',
      labels: { cluster: 'steady', part: 'control_plane' },
      value: 1,
    });
    expect(await samples(metrics, 'update_health_dashboard_info')).toEqual([
      {
        name: 'update_health_dashboard_info',
        labels: { public_url: 'https://update-health.apps.example.com' },
        value: 1,
      },
    ]);
  }, 60_000);

  it('observe the duration of an update when its last worker pool is done, once', async () => {
    const { metrics, engines } = await watched(['update-in-progress']);
    const [engine] = engines;
    const clock = servers[0].cluster.clock;
    const count = async () =>
      (await samples(metrics, 'update_health_update_duration_seconds_count')).find(
        (s) => s.labels.from_minor === '4.15' && s.labels.to_minor === '4.16',
      )?.value ?? 0;
    // Step through the story so the watch sees the update move, then finish.
    for (let at = 0; at < UIP_WORKERS_DONE_BY_MS + 5 * MINUTE; at += MINUTE) {
      clock.advance(MINUTE);
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (at % (10 * MINUTE) === 0) engine.evaluateNow();
    }
    await until(async () => {
      engine.evaluateNow();
      return (await count()) === 1;
    });
    const sum = (await samples(metrics, 'update_health_update_duration_seconds_sum')).find(
      (s) => s.labels.from_minor === '4.15',
    )!.value;
    // The virtual clock jumps a minute per step here, faster than the connection's clock estimate follows: the
    // duration is at least the control plane's (from the history entry) and at most until the last pool was done.
    const [controlPlane] = engine.health().cluster.history;
    const controlPlaneSeconds =
      (Date.parse(controlPlane.completionTime!) - Date.parse(controlPlane.startedTime!)) / 1000;
    expect(controlPlaneSeconds).toBeGreaterThan(10 * 60);
    expect(controlPlaneSeconds).toBeLessThanOrEqual((UIP_CONTROL_PLANE_DONE_BY_MS - UIP_UPDATE_REQUESTED_AT_MS) / 1000);
    expect(sum).toBeGreaterThanOrEqual(controlPlaneSeconds);
    expect(sum).toBeLessThanOrEqual((UIP_WORKERS_DONE_BY_MS - UIP_UPDATE_REQUESTED_AT_MS) / 1000 + 5 * 60);
    clock.advance(30 * MINUTE);
    engine.evaluateNow();
    expect(await count()).toBe(1);
  }, 90_000);
});

describe('scrape size', () => {
  it('stays bounded at 500 clusters: every story at its failure, named round-robin as in the fleet bench', async () => {
    const healths = SCENARIO_NAMES.map((name) => {
      const { snapshot, now } = scenarioSnapshot(name, SCENARIOS[name]!.failureAtMs + 5 * MINUTE);
      return assess(snapshot, now, name);
    });
    const members = Array.from({ length: 500 }, (_, i) => {
      const health = healths[i % healths.length];
      return { id: `${SCENARIO_NAMES[i % SCENARIO_NAMES.length]}-${i}`, health: () => health };
    });
    const metrics = new ServiceMetrics();
    metrics.health.observe(() => members, 'https://update-health.apps.example.com');
    const started = performance.now();
    const text = await metrics.exposition();
    const elapsed = performance.now() - started;
    const own = /^update_health_(finding|cluster_update_phase|cluster_update_completion_ratio|dashboard_info)\{/;
    const lines = text.split('\n').filter((line) => own.test(line));
    const bytes = lines.reduce((sum, line) => sum + line.length + 1, 0);
    const findings = lines.filter((line) => line.startsWith('update_health_finding{')).length;
    console.log(
      `500 clusters: ${lines.length} health-signal series (${findings} finding series), ` +
        `${(bytes / 1024).toFixed(0)} KiB of ${(text.length / 1024).toFixed(0)} KiB scraped ` +
        `in ${elapsed.toFixed(0)} ms`,
    );
    // the bound: per cluster, one series per detector and active severity, one phase, two completions
    expect(lines.length).toBeLessThanOrEqual(500 * (DETECTORS.length * 3 + 1 + 2) + 1);
    expect(findings).toBeGreaterThan(500);
    expect(bytes).toBeLessThan(512 * 1024);
  }, 60_000);
});
