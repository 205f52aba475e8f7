/**
 * `npm run bench -- fleet [--clusters 500] [--updating N] [--sync-only] [--via-hub] [--json FILE] [--clients 3]
 * [--changes 200] [--dashboard-heap-mb 1024]`: the embedded clusters run in this process, the real dashboard
 * (`server/cli/start.ts`, production build) in another. Browser-like SSE clients stay connected to `/api/stream`
 * while ClusterVersion objects change; each change carries a marker (its channel) and its latency is the time until
 * every client saw a health message with that marker. Then 20 clusters are black-holed (TCP open, no byte in either
 * direction) while the healthy ones keep changing (R13), and finally every API server restarts with watch rate
 * limiting (429 + Retry-After) and each cluster's recovery is the time until a change made after the restart reaches
 * the clients (R12). The bytes an open fleet tab receives per second are measured with no change from the bench and
 * during the steady changes. `--updating N` runs N clusters mid-update (update-in-progress) and the rest steady
 * instead of the scenario mix; `--sync-only` stops after the first sync and
 * the steady-state figures (heavy clusters, open watches, log polls).
 *
 * `--via-hub` puts the embedded ACM hub in front: the dashboard gets the hub's kubeconfig only (`--hub FILE`),
 * discovers the clusters from ClusterProfiles and reaches every one through cluster-proxy; the members open no
 * port (the proxy hands requests to them in process, one tunnel per cluster). Changes are still made on the members'
 * stores. `sockets` counts the dashboard's connections to the hub API server and proxy; the isolation phase is a
 * dead tunnel for 20 clusters in the proxy (requests held open, nothing sent), the resync phase a restart of the
 * proxy (every tunnelled connection drops) with members rate-limiting watches. The JSON says `viaHub: true`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startFleet, type Fleet, type FleetCluster } from '@/server/simulator/fleet';
import { SCENARIO_NAMES } from '@/server/simulator/types';
import { parseExposition } from '@/lib/metrics/exposition';
import { needsBuild } from '@/server/cli/build-state';
import { streamClient, type StreamClient } from './stream-client';
import { clustersPoller } from './clusters-poller';
import { directTopology, hubTopology, type FleetTopology } from './fleet-topology';
import { establishedConnections } from './process-sockets';
import { sourceUpToDate } from '@/lib/health/tiers';

/** How long the open tabs' stream is measured with no change from the bench. */
const QUIET_SECONDS = 30;
/** How long after the first sync the fleet runs before its steady-state figures (heavy clusters, watches) are taken. */
const STEADY_SECONDS = 30;
/** How often GET /api/clusters is timed while the fleet syncs. */
const LIST_SAMPLE_MS = 200;

/** What the bench writes (`--json FILE`) and prints. */
export interface FleetBenchResult {
  clusters: number;
  /** Present when the dashboard reached the fleet through the embedded hub's cluster-proxy (`--via-hub`). */
  viaHub?: true;
  /** Clusters mid-update (`--updating`); absent: the scenario mix. */
  updating?: number;
  /**
   * Clusters the dashboard watches in full at steady state, counted on the API servers: those with an open
   * cluster-wide pod watch (the active tier's heaviest source).
   */
  heavyClusters: number;
  /** Watch requests open on the API servers at steady state, and pod-log GETs per second over the steady period. */
  watches: number;
  logPollsPerSecond: number;
  /** p99 of GET /api/clusters, timed every 200 ms from the dashboard's first answer until every cluster synced. */
  clustersApiP99MsDuringSync: number;
  syncedClusters: number;
  /**
   * Sources the dashboard may not read (403) once synced: settled, shown as data, not behind. Through the hub the
   * managed service account's RBAC decides which.
   */
  forbiddenSources: number;
  syncSeconds: number;
  dashboardHeapBytes: number;
  dashboardRssBytes: number;
  /**
   * TCP connections the dashboard holds to the API servers (direct or through a relay), or with `--via-hub` to the
   * hub's API server and cluster-proxy, once every cluster synced.
   */
  sockets: number;
  /** The dashboard's heap limit (`--dashboard-heap-mb`, default 1,024 as deployed). */
  dashboardHeapLimitMb: number;
  /** The Node.js version the bench and the dashboard ran on. */
  nodeVersion: string;
  changeToBrowserP50Ms: number;
  changeToBrowserP99Ms: number;
  isolation: { blackholed: number; healthyChangeToBrowserP99Ms: number };
  resync: { seconds: number; p95ReconnectGapMs: number };
  /**
   * Event-loop delay p99 while the steady changes were made, in the dashboard and in this process (the API servers
   * and the clients): which side a slow change waited on.
   */
  eventLoopDelayP99Ms: { dashboard: number; simulators: number };
  /** The dashboard during the steady changes: CPU cores used, health evaluations per second and their mean time, major GCs. */
  dashboardWork: {
    cpuCores: number;
    evaluationsPerSecond: number;
    evaluationMeanMs: number;
    majorGcs: number;
    majorGcMeanMs: number;
  };
  /**
   * Bytes per second one open fleet tab (`/api/stream?view=summary`) receives, averaged over the clients: while the
   * fleet runs its scenarios with no change from the bench (`quiet`, the steady cost of an open tab) and during the
   * bench's steady changes.
   */
  streamBytesPerSecond: { quiet: number; duringChanges: number };
  /** Changes another writer replaced on the API server before the clients saw them (not timed). */
  supersededChanges: number;
  /** Streams the dashboard ended because a client fell behind, and the clients' reconnections (all phases). */
  stream: { slowClientsEnded: number; clientReconnects: number };
}

const percentile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The dashboard's memory and counters; the event-loop delay is since the previous scrape (prom-client resets it). */
async function metricsOf(base: string) {
  const { samples } = parseExposition(await (await fetch(`${base}/metrics`)).text());
  const sum = (name: string, labels: Record<string, string> = {}) =>
    samples
      .filter(
        (sample) =>
          sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
      )
      .reduce((total, sample) => total + sample.value, 0);
  return {
    heap: sum('nodejs_heap_size_used_bytes'),
    rss: sum('process_resident_memory_bytes'),
    slowClientsEnded: sum('update_health_sse_slow_clients_ended_total'),
    loopDelayP99Ms: Math.round(sum('nodejs_eventloop_lag_p99_seconds') * 1000),
    evaluations: sum('update_health_detector_evaluation_seconds_count'),
    evaluationSeconds: sum('update_health_detector_evaluation_seconds_sum'),
    cpuSeconds: sum('process_cpu_seconds_total'),
    majorGcSeconds: sum('nodejs_gc_duration_seconds_sum', { kind: 'major' }),
    majorGcs: sum('nodejs_gc_duration_seconds_count', { kind: 'major' }),
  };
}

/** Sets a cluster's ClusterVersion channel (the change marker) through its API store, as any client would. */
function change(running: FleetCluster, marker: string): void {
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
async function measureChanges(
  base: string,
  targets: FleetCluster[],
  clients: StreamClient[],
  count: number,
  tag: string,
  stats: { superseded: number },
  gapMs = 50,
): Promise<number[]> {
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

/** A watch request (list-then-watch or WatchList) as the API server sees it. */
const isWatch = (query: string): boolean => /(^|&)watch=(true|1)(&|$)/.test(query);

/**
 * Figures taken on the API servers after the fleet ran {@link STEADY_SECONDS} past its first sync: clusters with an
 * open cluster-wide pod watch, open watches, and pod-log GETs per second over that period.
 */
async function steadyState(clusters: readonly FleetCluster[]) {
  const logGets = () =>
    clusters.reduce((sum, running) => sum + (running.server.stats.snapshot().requests['pods/log:get'] ?? 0), 0);
  const logsBefore = logGets();
  await sleep(STEADY_SECONDS * 1000);
  let heavyClusters = 0;
  let watches = 0;
  for (const running of clusters) {
    const open = running.server.stats.snapshot().activeRequests.filter((request) => isWatch(request.query));
    watches += open.length;
    if (open.some((request) => request.path === '/api/v1/pods')) heavyClusters += 1;
  }
  return {
    heavyClusters,
    watches,
    logPollsPerSecond: Math.round(((logGets() - logsBefore) / STEADY_SECONDS) * 10) / 10,
  };
}

function parse(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      clusters: { type: 'string' },
      json: { type: 'string' },
      clients: { type: 'string' },
      changes: { type: 'string' },
      port: { type: 'string' },
      'dashboard-heap-mb': { type: 'string' },
      updating: { type: 'string' },
      'sync-only': { type: 'boolean' },
      'via-hub': { type: 'boolean' },
    },
    strict: true,
  });
  const number = (flag: string, text: string | undefined, fallback: number) => {
    const value = text === undefined ? fallback : Number(text);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${flag} must be a positive integer, got "${text}"`);
    return value;
  };
  const clusters = number('clusters', values.clusters, 500);
  const updating = values.updating === undefined ? undefined : Number(values.updating);
  if (updating !== undefined && (!Number.isInteger(updating) || updating < 0 || updating > clusters))
    throw new Error(`--updating must be an integer from 0 to --clusters (${clusters}), got "${values.updating}"`);
  return {
    clusters,
    updating,
    syncOnly: values['sync-only'] ?? false,
    viaHub: values['via-hub'] ?? false,
    clients: number('clients', values.clients, 3),
    changes: number('changes', values.changes, 200),
    port: number('port', values.port, 3170),
    dashboardHeapMb: number('dashboard-heap-mb', values['dashboard-heap-mb'], 1024),
    json: values.json,
  };
}

/** Runs the fleet bench; see the file comment. */
export async function runFleetBench(argv: string[] = process.argv.slice(3)): Promise<FleetBenchResult> {
  const args = parse(argv);
  const dir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  let fleet: Fleet | undefined;
  let dashboard: ChildProcess | undefined;
  let topology: FleetTopology | undefined;
  const clients: StreamClient[] = [];
  try {
    console.log(`fleet bench: starting ${args.clusters} embedded clusters ...`);
    const scenarios =
      args.updating === undefined
        ? [...SCENARIO_NAMES]
        : Array.from({ length: args.clusters }, (_, i) => (i < args.updating! ? 'update-in-progress' : 'steady'));
    // Behind the hub, members need no listener of their own: the proxy's tunnel reaches them in process.
    fleet = await startFleet({ scenarios, size: args.clusters, speed: 1, listen: !args.viaHub });
    topology = args.viaHub ? await hubTopology(fleet, dir) : await directTopology(fleet, dir);

    if (needsBuild(process.cwd())) {
      console.log('fleet bench: building the dashboard first (not timed) ...');
      const code = await new Promise<number | null>((resolve) =>
        spawn('npx', ['next', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } }).on(
          'exit',
          resolve,
        ),
      );
      if (code !== 0) throw new Error(`next build failed (exit ${code})`);
    }
    const base = `http://127.0.0.1:${args.port}`;
    const started = performance.now();
    // As deployed (deploy/openshift) unless --dashboard-heap-mb: the heap limit the container's memory limit leaves
    // for JavaScript.
    dashboard = spawn(
      process.execPath,
      [
        '--conditions=react-server',
        '--import',
        'tsx',
        'server/cli/start.ts',
        ...topology.dashboardArgs,
        '--port',
        String(args.port),
        '--no-build',
        '--max-heap-mb',
        String(args.dashboardHeapMb),
      ],
      {
        env: { ...process.env, UPDATE_HEALTH_DATA_DIR: join(dir, 'data'), NEXT_TELEMETRY_DISABLED: '1' },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    let exited: string | undefined;
    dashboard.on('exit', (code, signal) => (exited = signal ?? `code ${code}`));
    const ids = new Set(fleet.clusters.map((running) => running.id));
    let synced = 0;
    let reportedAt = performance.now();
    let forbiddenSources = 0;
    let syncSeconds = Number.NaN;
    const listLatencies: number[] = [];
    const deadline = performance.now() + 15 * 60_000;
    // An idle cluster's active-tier sources wait for activity: synced means nothing it watches is behind.
    // A forbidden source is settled (the answer is final and shown), not behind.
    const settled = (status: string) => sourceUpToDate({ status }) || status === 'forbidden';
    const poller = clustersPoller(`${base}/api/clusters`, LIST_SAMPLE_MS);
    try {
      while (performance.now() < deadline) {
        const sample = await poller.next(5_000);
        if (sample?.latencyMs !== undefined) listLatencies.push(sample.latencyMs);
        if (sample?.rows) {
          const rows = sample.rows.filter((row) => ids.has(row.id));
          const statuses = (row: (typeof rows)[number]) => Object.keys(row.statuses);
          synced = rows.filter((row) => statuses(row).length > 0 && statuses(row).every(settled)).length;
          forbiddenSources = rows.reduce((sum, row) => sum + (row.statuses.forbidden ?? 0), 0);
        }
        if (synced === ids.size) {
          syncSeconds = (performance.now() - started) / 1000;
          break;
        }
        const elapsed = Math.round((performance.now() - started) / 1000);
        if (exited)
          throw new Error(`the dashboard exited (${exited}) after ${elapsed} s, ${synced}/${ids.size} synced`);
        if (performance.now() - reportedAt > 15_000) {
          reportedAt = performance.now();
          console.log(`fleet bench: ${synced}/${ids.size} clusters synced after ${elapsed} s ...`);
        }
      }
    } finally {
      await poller.close();
    }
    console.log(
      `fleet bench: ${synced}/${ids.size} clusters synced after ${Math.round((performance.now() - started) / 1000)} s`,
    );
    console.log(`fleet bench: GET /api/clusters answers (ms) ${listLatencies.map(Math.round).join(' ')}`);
    const clustersApiP99MsDuringSync = Math.round(percentile(listLatencies, 0.99));
    console.log(`fleet bench: GET /api/clusters p99 ${clustersApiP99MsDuringSync} ms while syncing`);
    const steady = await steadyState(fleet.clusters);
    console.log(
      `fleet bench: at steady state ${steady.heavyClusters} heavy clusters, ${steady.watches} open watches, ` +
        `${steady.logPollsPerSecond} log GETs/s`,
    );

    const sockets = dashboard.pid === undefined ? Number.NaN : establishedConnections(dashboard.pid, topology.apiPorts);
    console.log(`fleet bench: the dashboard holds ${sockets} TCP connections to the API servers`);
    const syncFigures = {
      clusters: ids.size,
      ...(args.viaHub ? { viaHub: true as const } : {}),
      ...(args.updating === undefined ? {} : { updating: args.updating }),
      ...steady,
      clustersApiP99MsDuringSync,
      syncedClusters: synced,
      forbiddenSources,
      syncSeconds: Math.round(syncSeconds * 10) / 10,
      sockets,
      dashboardHeapLimitMb: args.dashboardHeapMb,
      nodeVersion: process.version,
    };
    if (args.syncOnly) {
      const memory = await metricsOf(base);
      const result = { ...syncFigures, dashboardHeapBytes: memory.heap, dashboardRssBytes: memory.rss };
      console.log(JSON.stringify(result, null, 2));
      if (args.json) writeFileSync(args.json, `${JSON.stringify(result, null, 2)}\n`);
      return result as FleetBenchResult;
    }

    // Browser-like: the fleet page's stream, a row per cluster.
    for (let i = 0; i < args.clients; i += 1) clients.push(await streamClient(`${base}/api/stream?view=summary`));
    await Promise.all(clients.map((client) => client.waitForSnapshot(ids.size, 120_000)));
    const perClient = () => clients.reduce((sum, client) => sum + client.bytes, 0) / clients.length;
    const quietBytes = perClient();
    const quietStart = performance.now();
    await sleep(QUIET_SECONDS * 1000);
    const quiet = (perClient() - quietBytes) / ((performance.now() - quietStart) / 1000);
    console.log(`fleet bench: an open fleet tab received ${Math.round(quiet)} B/s in ${QUIET_SECONDS} s, no change`);
    const changesBytes = perClient();
    const changeStats = { superseded: 0 };
    const before = await metricsOf(base);
    const phaseStart = performance.now();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const latencies = await measureChanges(base, fleet.clusters, clients, args.changes, 'steady', changeStats);
    loop.disable();
    let memory = await metricsOf(base);
    const eventLoopDelayP99Ms = { dashboard: memory.loopDelayP99Ms, simulators: Math.round(loop.percentile(99) / 1e6) };
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

    topology.blackhole();
    const { candidates } = topology;
    const healthy = fleet.clusters.filter((running) => !candidates.includes(running));
    const isolated = await measureChanges(base, healthy, clients, Math.ceil(args.changes / 2), 'isolated', changeStats);
    const during = await metricsOf(base);
    memory = { ...during, heap: Math.max(memory.heap, during.heap), rss: Math.max(memory.rss, during.rss) };

    // R12: every API server (or the cluster-proxy) restarts behind watch rate limiting; recovery = a change after
    // the restart reaches the clients.
    console.log(`fleet bench: restarting ${args.viaHub ? 'the cluster-proxy' : 'every API server'} ...`);
    const restartAt = performance.now();
    await topology.restart(healthy);
    const gaps = await Promise.all(
      healthy.map(async (running, i) => {
        const marker = `bench-resync-${i}`;
        change(running, marker);
        const seen = await Promise.all(clients.map((client) => client.waitForChannel(running.id, marker, 10 * 60_000)));
        return Math.max(...seen) - restartAt;
      }),
    );
    const result: FleetBenchResult = {
      ...syncFigures,
      dashboardHeapBytes: memory.heap,
      dashboardRssBytes: memory.rss,
      changeToBrowserP50Ms: Math.round(percentile(latencies, 0.5)),
      changeToBrowserP99Ms: Math.round(percentile(latencies, 0.99)),
      isolation: {
        blackholed: topology.candidates.length,
        healthyChangeToBrowserP99Ms: Math.round(percentile(isolated, 0.99)),
      },
      resync: {
        seconds: Math.round(Math.max(...gaps) / 100) / 10,
        p95ReconnectGapMs: Math.round(percentile(gaps, 0.95)),
      },
      eventLoopDelayP99Ms,
      dashboardWork,
      streamBytesPerSecond,
      supersededChanges: changeStats.superseded,
      stream: {
        slowClientsEnded: (await metricsOf(base)).slowClientsEnded,
        clientReconnects: clients.reduce((sum, client) => sum + client.reconnects, 0),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    if (args.json) writeFileSync(args.json, `${JSON.stringify(result, null, 2)}\n`);
    return result;
  } finally {
    for (const client of clients) client.close();
    dashboard?.kill('SIGTERM');
    await topology?.close();
    await fleet?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
