/** The fleet bench's first phase: the dashboard syncs every cluster while GET /api/clusters is timed. */
import { clustersPoller } from './clusters-poller';
import type { BenchDashboard } from './fleet-dashboard';
import { percentile } from './fleet-result';

/** How often GET /api/clusters is timed while the fleet syncs. */
const LIST_SAMPLE_MS = 200;
/** How long the fleet may take to sync before the bench reports what it got. */
const SYNC_DEADLINE_MS = 15 * 60_000;

/** What the sync phase measured. */
export interface SyncFigures {
  syncedClusters: number;
  forbiddenSources: number;
  /** NaN when not every cluster synced before the deadline. */
  syncSeconds: number;
  clustersApiP99MsDuringSync: number;
  /** From spawn to the server's first /healthz answer: `next start` booting, which the list's timing starts after. */
  upSeconds: number;
}

/**
 * Polls the dashboard's fleet list until every cluster in `ids` has synced (or 15 minutes passed); throws when the
 * dashboard exits meanwhile.
 */
export async function waitForSync(dashboard: BenchDashboard, ids: ReadonlySet<string>): Promise<SyncFigures> {
  const started = dashboard.startedAt;
  let synced = 0;
  let reportedAt = performance.now();
  let forbiddenSources = 0;
  let syncSeconds = Number.NaN;
  const listLatencies: number[] = [];
  const deadline = performance.now() + SYNC_DEADLINE_MS;
  // An idle cluster's active-tier sources wait for activity: synced means nothing it watches is behind (the row lists
  // only the sources behind). A forbidden source is settled (the answer is final and shown).
  const settled = (status: string) => status === 'forbidden';
  // A request that arrives while `next start` itself boots waits for that boot, which no server code shortens: the
  // list is timed from the server's first answer on.
  const upSeconds = await untilUp(dashboard, deadline);
  console.log(`fleet bench: the dashboard answered /healthz after ${upSeconds.toFixed(1)} s`);
  const poller = clustersPoller(`${dashboard.base}/api/clusters`, LIST_SAMPLE_MS);
  try {
    while (performance.now() < deadline) {
      const sample = await poller.next(5_000);
      if (sample?.latencyMs !== undefined) listLatencies.push(sample.latencyMs);
      if (sample?.rows) {
        const rows = sample.rows.filter((row) => ids.has(row.id));
        synced = rows.filter((row) => row.sources > 0 && Object.keys(row.behind).every(settled)).length;
        forbiddenSources = rows.reduce((sum, row) => sum + (row.behind.forbidden ?? 0), 0);
      }
      if (synced === ids.size) {
        syncSeconds = (performance.now() - started) / 1000;
        break;
      }
      const elapsed = Math.round((performance.now() - started) / 1000);
      const exited = dashboard.exited();
      if (exited) throw new Error(`the dashboard exited (${exited}) after ${elapsed} s, ${synced}/${ids.size} synced`);
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
  return { syncedClusters: synced, forbiddenSources, syncSeconds, clustersApiP99MsDuringSync, upSeconds };
}

/** Seconds from spawn until GET /healthz answers 200; throws when the dashboard exits or the deadline passes. */
async function untilUp(dashboard: BenchDashboard, deadline: number): Promise<number> {
  for (;;) {
    const answered = await fetch(`${dashboard.base}/healthz`, { signal: AbortSignal.timeout(30_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return (performance.now() - dashboard.startedAt) / 1000;
    const exited = dashboard.exited();
    if (exited) throw new Error(`the dashboard exited (${exited}) before it answered /healthz`);
    if (performance.now() > deadline) throw new Error('the dashboard never answered /healthz');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
