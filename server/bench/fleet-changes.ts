/**
 * The fleet bench's changes: a ClusterVersion channel set on a cluster's API store (the marker), timed until every
 * browser-like client saw it; and the steady phase, open tabs measured with no change, then while changes are made.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FleetCluster } from '@/server/simulator/fleet';
import { metricsOf } from './fleet-dashboard';
import type { FleetBenchResult } from './fleet-result';
import { streamClient, type StreamClient } from './stream-client';

/** How long the open tabs' stream is measured with no change from the bench. */
const QUIET_SECONDS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sets a cluster's ClusterVersion channel (the change marker) through its API store, as any client would. */
export function change(running: FleetCluster, marker: string): void {
  const cv = running.cluster.client.get('clusterversions', 'version');
  if (!cv) throw new Error(`${running.id} has no ClusterVersion`);
  running.cluster.client.update('clusterversions', { ...cv, spec: { ...(cv.spec as object), channel: marker } });
}

/** Where a change that never reached the clients got to: the API server, the dashboard's cache and health, each client. */
async function diagnose(base: string, running: FleetCluster, marker: string, clients: StreamClient[]): Promise<string> {
  const cv = running.cluster.client.get('clusterversions', 'version');
  const health = (await fetch(`${base}/api/clusters/${encodeURIComponent(running.id)}/health`).then(
    (r) => r.json(),
    (e: unknown) => ({ error: String(e) }),
  )) as {
    cluster?: { channel?: string | null };
    sources?: { resource: string; status: string; lastEventAt?: string; error?: { message: string } }[];
  };
  const source = health.sources?.find((s) => s.resource === 'clusterversions');
  return [
    `${running.id} ${marker}: API server channel=${(cv?.spec as { channel?: string } | undefined)?.channel} rv=${cv?.metadata.resourceVersion}`,
    `dashboard health channel=${health.cluster?.channel} clusterversions source=${JSON.stringify(source)}`,
    `client reconnects=${clients.map((client) => client.reconnects).join(',')}`,
  ].join('; ');
}

/**
 * Resolves when another writer replaces the marker on the API server before the clients saw it: the scenarios'
 * own stories change the channel too (update-in-progress runs `oc adm upgrade channel`), and the dashboard then
 * rightly shows theirs. Such a change is superseded, not lost.
 */
function superseded(running: FleetCluster, marker: string): { promise: Promise<'superseded'>; cancel(): void } {
  let cancel = (): void => {};
  const promise = new Promise<'superseded'>((resolve) => {
    cancel = running.cluster.store.subscribe('clusterversions', (event) => {
      if ((event.entry.object.spec as { channel?: string } | undefined)?.channel === marker) return;
      cancel();
      resolve('superseded');
    });
  });
  return { promise, cancel: () => cancel() };
}

/**
 * Makes `count` changes on `targets`, one every `gapMs`, and returns each change's latency to the slowest client
 * (superseded changes are counted in `stats`, not timed).
 */
export async function measureChanges(
  base: string,
  targets: FleetCluster[],
  clients: StreamClient[],
  count: number,
  tag: string,
  stats: { superseded: number },
  gapMs = 50,
): Promise<number[]> {
  if (targets.length === 0 && count > 0) throw new Error(`fleet bench: no cluster to change in the ${tag} phase`);
  const waits: Promise<number | undefined>[] = [];
  const slowest: { id: string; ms: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const running = targets[(i * 7919) % targets.length];
    const marker = `bench-${tag}-${i}`;
    const written = performance.now();
    change(running, marker);
    const overwritten = superseded(running, marker);
    const seen = Promise.all(clients.map((client) => client.waitForChannel(running.id, marker, 60_000))).then(
      (times) => Math.max(...times) - written,
      async (error: Error) => {
        throw new Error(`${error.message} (${await diagnose(base, running, marker, clients)})`);
      },
    );
    waits.push(
      Promise.race([seen, overwritten.promise]).then((outcome) => {
        overwritten.cancel();
        if (outcome !== 'superseded') {
          slowest.push({ id: running.id, ms: Math.round(outcome) });
          return outcome;
        }
        stats.superseded += 1;
        seen.catch(() => undefined);
        return undefined;
      }),
    );
    await sleep(gapMs);
  }
  const latencies = (await Promise.all(waits)).filter((latency): latency is number => latency !== undefined);
  console.log(
    `fleet bench: ${tag} slowest: ${slowest
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map(({ id, ms }) => `${id} ${ms} ms`)
      .join(', ')}`,
  );
  return latencies;
}

/** What the steady phase measured. */
export interface SteadyChanges {
  latencies: number[];
  memory: Awaited<ReturnType<typeof metricsOf>>;
  eventLoopDelayP99Ms: FleetBenchResult['eventLoopDelayP99Ms'];
  eventLoopDelayMaxMs: FleetBenchResult['eventLoopDelayMaxMs'];
  dashboardWork: FleetBenchResult['dashboardWork'];
  streamBytesPerSecond: FleetBenchResult['streamBytesPerSecond'];
}

/**
 * Opens `count` browser-like clients on the fleet page's stream (pushed to `clients`, which the caller closes),
 * measures what they receive with no change for {@link QUIET_SECONDS}, then makes `changes` changes on `targets`.
 */
export async function steadyChanges(options: {
  base: string;
  targets: FleetCluster[];
  clients: StreamClient[];
  count: number;
  rows: number;
  changes: number;
  stats: { superseded: number };
}): Promise<SteadyChanges> {
  const { base, clients } = options;
  // Browser-like: the fleet page's stream, a row per cluster.
  for (let i = 0; i < options.count; i += 1) clients.push(await streamClient(`${base}/api/stream?view=summary`));
  await Promise.all(clients.map((client) => client.waitForSnapshot(options.rows, 120_000)));
  const perClient = () => clients.reduce((sum, client) => sum + client.bytes, 0) / clients.length;
  const quietBytes = perClient();
  const quietStart = performance.now();
  await sleep(QUIET_SECONDS * 1000);
  const quiet = (perClient() - quietBytes) / ((performance.now() - quietStart) / 1000);
  console.log(`fleet bench: an open fleet tab received ${Math.round(quiet)} B/s in ${QUIET_SECONDS} s, no change`);
  const changesBytes = perClient();
  const before = await metricsOf(base);
  const phaseStart = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const latencies = await measureChanges(base, options.targets, clients, options.changes, 'steady', options.stats);
  loop.disable();
  const memory = await metricsOf(base);
  const eventLoopDelayP99Ms = { dashboard: memory.loopDelayP99Ms, simulators: Math.round(loop.percentile(99) / 1e6) };
  const eventLoopDelayMaxMs = { dashboard: memory.loopDelayMaxMs, simulators: Math.round(loop.max / 1e6) };
  const phaseSeconds = (performance.now() - phaseStart) / 1000;
  const streamBytesPerSecond = {
    quiet: Math.round(quiet),
    duringChanges: Math.round((perClient() - changesBytes) / phaseSeconds),
  };
  const evaluations = memory.evaluations - before.evaluations;
  const dashboardWork = {
    cpuCores: Math.round(((memory.cpuSeconds - before.cpuSeconds) / phaseSeconds) * 100) / 100,
    evaluationsPerSecond: Math.round(evaluations / phaseSeconds),
    evaluationMeanMs: Math.round(((memory.evaluationSeconds - before.evaluationSeconds) / evaluations) * 1e4) / 10,
    majorGcs: memory.majorGcs - before.majorGcs,
    majorGcMeanMs: Math.round(
      ((memory.majorGcSeconds - before.majorGcSeconds) / Math.max(1, memory.majorGcs - before.majorGcs)) * 1000,
    ),
  };
  return { latencies, memory, eventLoopDelayP99Ms, eventLoopDelayMaxMs, dashboardWork, streamBytesPerSecond };
}
