/**
 * `npm run bench -- fleet [--clusters 500] [--updating N] [--sync-only] [--via-hub] [--json FILE] [--clients 3]
 * [--changes 200] [--dashboard-heap-mb 1024]`: the embedded clusters run in this process, the real dashboard
 * (`server/cli/start.ts`, production build) in another. Browser-like SSE clients stay connected to `/api/stream`
 * while ClusterVersion objects change; each change carries a marker (its channel) and its latency is the time until
 * every client saw a health message with that marker. Then 20 clusters (at most half the fleet) are black-holed (TCP
 * open, no byte in either direction) while the healthy ones keep changing (R13), and finally every API server
 * restarts with watch rate limiting (429 + Retry-After) and each cluster's recovery is the time until a change made
 * after the restart reaches the clients (R12). The bytes an open fleet tab receives per second are measured with no
 * change from the bench and during the steady changes. `--updating N` runs N clusters mid-update
 * (update-in-progress) and the rest steady instead of the scenario mix; `--sync-only` stops after the first sync and
 * the steady-state figures (heavy clusters, read once the N clusters are active; open watches; log polls). The log
 * polls are counted over whole poll periods from then on (175 s at 3,500 clusters) while the changes are timed; the
 * window ends before the isolation phase.
 *
 * `--via-hub` puts the embedded ACM hub in front: the dashboard gets the hub's kubeconfig only (`--hub FILE`),
 * discovers the clusters from ClusterProfiles and reaches every one through cluster-proxy; the members open no
 * port (the proxy hands requests to them in process, one tunnel per cluster). Changes are still made on the members'
 * stores. `sockets` counts the dashboard's connections to the hub API server and proxy; the isolation phase is a
 * dead tunnel for 20 clusters in the proxy (requests held open, nothing sent), the resync phase a restart of the
 * proxy (every tunnelled connection drops) with members rate-limiting watches. The JSON says `viaHub: true`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFleet, type Fleet } from '@/server/simulator/fleet';
import { SCENARIO_NAMES } from '@/server/simulator/types';
import type { StreamClient } from './stream-client';
import { directTopology, hubTopology, type FleetTopology } from './fleet-topology';
import { establishedConnections } from './process-sockets';
import { metricsOf, startDashboard, type BenchDashboard } from './fleet-dashboard';
import { waitForSync } from './fleet-sync';
import { steadyState } from './fleet-steady';
import { steadyChanges } from './fleet-changes';
import { isolationPhase, resyncPhase } from './fleet-resync';
import { percentile, writeReport, type FleetBenchResult } from './fleet-result';

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
  let dashboard: BenchDashboard | undefined;
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
    dashboard = await startDashboard({ topology, port: args.port, heapMb: args.dashboardHeapMb, dir });
    const { base } = dashboard;
    const ids = new Set(fleet.clusters.map((running) => running.id));
    const sync = await waitForSync(dashboard, ids);
    const updating = new Set(
      fleet.clusters.filter((running) => running.name === 'update-in-progress').map((running) => running.id),
    );
    const { figures: steady, logPolls } = await steadyState({
      base,
      clusters: fleet.clusters,
      updating: args.updating === undefined ? new Set() : updating,
    });
    console.log(`fleet bench: at steady state ${steady.heavyClusters} heavy clusters, ${steady.watches} open watches`);

    const pid = dashboard.process.pid;
    const sockets = pid === undefined ? Number.NaN : establishedConnections(pid, topology.apiPorts);
    console.log(`fleet bench: the dashboard holds ${sockets} TCP connections to the API servers`);
    const syncFigures = {
      clusters: ids.size,
      ...(args.viaHub ? { viaHub: true as const } : {}),
      ...(args.updating === undefined ? {} : { updating: args.updating }),
      ...steady,
      clustersApiP99MsDuringSync: sync.clustersApiP99MsDuringSync,
      dashboardUpSeconds: Math.round(sync.upSeconds * 10) / 10,
      syncedClusters: sync.syncedClusters,
      forbiddenSources: sync.forbiddenSources,
      syncSeconds: Math.round(sync.syncSeconds * 10) / 10,
      sockets,
      dashboardHeapLimitMb: args.dashboardHeapMb,
      nodeVersion: process.version,
    };
    if (args.syncOnly) {
      const memory = await metricsOf(base);
      const result = {
        ...syncFigures,
        ...(await logPolls),
        dashboardHeapBytes: memory.heap,
        dashboardRssBytes: memory.rss,
      };
      return writeReport(result, args.json) as FleetBenchResult;
    }

    const stats = { superseded: 0 };
    const changes = await steadyChanges({
      base,
      targets: fleet.clusters,
      clients,
      count: args.clients,
      rows: ids.size,
      changes: args.changes,
      stats,
    });
    // The log window ends before clusters are cut off: a black-holed cluster's polls would not be answered.
    const logs = await logPolls;
    const isolation = await isolationPhase({
      base,
      clusters: fleet.clusters,
      topology,
      clients,
      changes: Math.ceil(args.changes / 2),
      stats,
    });
    const during = await metricsOf(base);
    const memory = {
      heap: Math.max(changes.memory.heap, during.heap),
      rss: Math.max(changes.memory.rss, during.rss),
    };
    const gaps = await resyncPhase({ topology, healthy: isolation.healthy, clients, viaHub: args.viaHub });
    const result: FleetBenchResult = {
      ...syncFigures,
      ...logs,
      dashboardHeapBytes: memory.heap,
      dashboardRssBytes: memory.rss,
      changeToBrowserP50Ms: Math.round(percentile(changes.latencies, 0.5)),
      changeToBrowserP99Ms: Math.round(percentile(changes.latencies, 0.99)),
      isolation: {
        blackholed: topology.candidates.length,
        healthyChangeToBrowserP99Ms: Math.round(percentile(isolation.latencies, 0.99)),
      },
      resync: {
        seconds: Math.round(Math.max(...gaps) / 100) / 10,
        p95ReconnectGapMs: Math.round(percentile(gaps, 0.95)),
      },
      eventLoopDelayP99Ms: changes.eventLoopDelayP99Ms,
      eventLoopDelayMaxMs: changes.eventLoopDelayMaxMs,
      dashboardWork: changes.dashboardWork,
      streamBytesPerSecond: changes.streamBytesPerSecond,
      supersededChanges: stats.superseded,
      stream: {
        slowClientsEnded: (await metricsOf(base)).slowClientsEnded,
        clientReconnects: clients.reduce((sum, client) => sum + client.reconnects, 0),
      },
    };
    return writeReport(result, args.json);
  } finally {
    for (const client of clients) client.close();
    dashboard?.process.kill('SIGTERM');
    await topology?.close();
    await fleet?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
