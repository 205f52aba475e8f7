/** What the fleet bench reports (server/bench/fleet.ts), and how it is written. */
import { writeFileSync } from 'node:fs';

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
  /**
   * The wait before `heavyClusters` was read: until every `--updating` cluster showed the active tier on the fleet
   * list and as many clusters held a cluster-wide pod watch (`reached`), bounded at 2 minutes; `activeClusters` is
   * how many rows showed the active tier then.
   */
  activeWait: { seconds: number; activeClusters: number; reached: boolean };
  /** Watch requests open on the API servers at steady state. */
  watches: number;
  /**
   * Pod-log GETs per second on the API servers once the active tier turned, over `logPollWindowSeconds`: a whole
   * number of the dashboard's log-poll periods (10 s, stretched past 200 clusters), 30 s at least.
   */
  logPollsPerSecond: number;
  logPollWindowSeconds: number;
  /** p99 of GET /api/clusters, timed every 200 ms from the first /healthz answer until every cluster synced. */
  clustersApiP99MsDuringSync: number;
  /** Seconds from spawn to the dashboard's first /healthz answer (the list is timed from then on). */
  dashboardUpSeconds: number;
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
  /** The longest event-loop delay on each side over the same phase: one stall barely moves a p99. */
  eventLoopDelayMaxMs: { dashboard: number; simulators: number };
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

/** The nearest-rank `q` quantile of `values`; NaN when there are none. */
export const percentile = (values: number[], q: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
/** Prints `result` and writes it to `json` when given. */
export function writeReport<T>(result: T, json: string | undefined): T {
  console.log(JSON.stringify(result, null, 2));
  if (json) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}
