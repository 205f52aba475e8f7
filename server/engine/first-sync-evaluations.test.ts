/**
 * A cluster's first sync is evaluated a bounded number of times: its always-tier sources answer at staggered moments
 * (the embedded API server delays their first LISTs), yet the detectors run once on the first answer and once when
 * the tier settled. After that, a change is evaluated within the 5 ms coalesce, as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleet, type Fleet as SimFleet } from '@/server/simulator/fleet';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { until } from '@/server/testing/reflector-harness';
import { evaluationsSoFar as evaluations } from '@/server/testing/evaluation-count';
import { tieredResources } from '@/lib/health/tiers';
import { DETECTORS } from '@/lib/health/registry';
import { ClusterEngine } from './cluster-engine';

let fleet: SimFleet | undefined;
let engine: ClusterEngine | undefined;
let dir = '';

afterEach(async () => {
  engine?.stop();
  engine = undefined;
  await fleet?.close();
  fleet = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function startEngine(delaysMs: readonly number[]): Promise<{ engine: ClusterEngine; started: number }> {
  fleet = await startFleet({ scenarios: ['steady'], speed: 1 });
  const [running] = fleet.clusters;
  // Optional needs (HyperShift's) are not served on a standalone cluster: nothing requests them.
  const always = [
    ...new Set(
      tieredResources(DETECTORS)
        .always.filter((need) => !need.optional)
        .map((need) => need.resource),
    ),
  ];
  // Each of the first resources' first request answers later than the one before: as many sync moments.
  delaysMs.forEach((delayMs, index) =>
    running.cluster.faults.add({ resource: always[index], verb: 'any', kind: 'slow', delayMs, count: 1 }),
  );
  dir = mkdtempSync(join(tmpdir(), 'first-sync-'));
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, fleet.kubeconfig('reader'), { mode: 0o600 });
  const started = await evaluations();
  engine = new ClusterEngine({ id: 'steady', name: 'steady', connection: createKubeConnection(kubeconfig, 'steady') });
  return { engine, started };
}

describe('a cluster engine during its first sync', () => {
  it('evaluates a staggered first sync a bounded number of times, and tells when it settled', async () => {
    const delays = [100, 200, 300, 400, 500, 600, 700, 800];
    const { engine, started } = await startEngine(delays);
    let settledAt = 0;
    engine.onFirstSync(() => (settledAt = Date.now()));
    const startedAt = Date.now();
    engine.start();
    await until('the first sync to settle', () => settledAt > 0, 10_000);
    expect(settledAt - startedAt).toBeGreaterThanOrEqual(delays.at(-1)!);
    // The evaluation of the complete snapshot follows the settling within the coalesce.
    await until('the settled snapshot to be published', () =>
      engine.health().sources.every((source) => source.status !== 'pending'),
    );
    // One when the first source answered, one when the last did, and the periodic re-evaluation (random phase) may
    // fall in; 9 when each answer was evaluated, 5 with one per 500 ms window.
    expect((await evaluations()) - started).toBeLessThanOrEqual(3);
  });

  it('evaluates a change after the first sync within the 5 ms coalesce', async () => {
    const { engine } = await startEngine([]);
    let settled = false;
    engine.onFirstSync(() => (settled = true));
    engine.start();
    await until('the first sync to settle', () => settled, 10_000);
    await until('the settled snapshot to be published', () =>
      engine.health().sources.every((source) => source.status !== 'pending'),
    );
    const before = await evaluations();
    const { client } = fleet!.clusters[0].cluster;
    const cv = client.get('clusterversions', 'version')!;
    const changedAt = Date.now();
    client.update('clusterversions', { ...cv, spec: { ...(cv.spec as object), channel: 'first-sync-test' } });
    await until('the change to be evaluated', async () => (await evaluations()) > before, 5_000, 1);
    // The watch event's delivery and the 5 ms coalesce, on a busy machine.
    expect(Date.now() - changedAt).toBeLessThan(400);
  });

  it('tells a cluster that turns active once its active tier synced too (what a staged start waits for)', async () => {
    const { engine } = await startEngine([]);
    // A viewer has it open from the start: the active tier (cluster-wide pods, logs) starts with the first evaluation.
    const release = engine.view();
    let told: { active: boolean; settled: boolean } | undefined;
    engine.onFirstSync(() => (told = { active: engine.active(), settled: engine.settled() }));
    engine.start();
    await until('the first sync to settle', () => told, 10_000);
    expect(told).toEqual({ active: true, settled: true });
    release();
  });
});
