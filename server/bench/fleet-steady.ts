/** The fleet bench's steady-state figures, counted on the API servers once the fleet has synced. */
import { LOG_POLL_MS } from '@/server/engine/cluster-engine';
import { fleetPollScale } from '@/server/engine/fleet-build';
import type { FleetCluster } from '@/server/simulator/fleet';
import { clustersPoller } from './clusters-poller';
import type { FleetBenchResult } from './fleet-result';

/** The shortest window pod-log GETs per second are counted over. */
const STEADY_SECONDS = 30;
/** The longest the bench waits for the active clusters to hold their cluster-wide pod watch. */
const ACTIVE_WAIT_MS = 120_000;
/** How often the fleet list is read while waiting. */
const ACTIVE_POLL_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watch request (list-then-watch or WatchList) as the API server sees it. */
const isWatch = (query: string): boolean => /(^|&)watch=(true|1)(&|$)/.test(query);

/** Open watches on the API servers, and the clusters among them with a cluster-wide pod watch (the heavy ones). */
function openWatches(clusters: readonly FleetCluster[]): { heavyClusters: number; watches: number } {
  let heavyClusters = 0;
  let watches = 0;
  for (const running of clusters) {
    const open = running.server.stats.snapshot().activeRequests.filter((request) => isWatch(request.query));
    watches += open.length;
    if (open.some((request) => request.path === '/api/v1/pods')) heavyClusters += 1;
  }
  return { heavyClusters, watches };
}

/**
 * Waits until the clusters mid-update are active: every cluster in `updating` shows the active tier on the
 * dashboard's fleet list, and at least that many clusters hold a cluster-wide pod watch on their API server (the
 * active tier's heaviest source, opened a moment after the tier turns). Gives up after {@link ACTIVE_WAIT_MS}; the
 * result says whether the condition was met, how long it took and how many clusters the list showed active.
 */
async function waitForActiveTier(
  base: string,
  clusters: readonly FleetCluster[],
  updating: ReadonlySet<string>,
): Promise<FleetBenchResult['activeWait']> {
  const started = performance.now();
  const ids = new Set(clusters.map((running) => running.id));
  const poller = clustersPoller(`${base}/api/clusters`, ACTIVE_POLL_MS);
  let activeClusters = 0;
  let activeUpdating = 0;
  let reached = false;
  try {
    while (!reached && performance.now() - started < ACTIVE_WAIT_MS) {
      const sample = await poller.next(5_000);
      if (!sample?.rows) continue;
      const active = sample.rows.filter((row) => row.active && ids.has(row.id));
      activeClusters = active.length;
      activeUpdating = active.filter((row) => updating.has(row.id)).length;
      reached = activeUpdating === updating.size && openWatches(clusters).heavyClusters >= updating.size;
    }
  } finally {
    await poller.close();
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  console.log(
    `fleet bench: ${reached ? '' : 'gave up waiting: '}${activeUpdating}/${updating.size} updating clusters active, ` +
      `${activeClusters} active in all, after ${seconds} s`,
  );
  return { seconds, activeClusters, reached };
}

/** How often the dashboard polls an active cluster's logs in a fleet of `clusters` (it stretches with the fleet). */
export const logPollPeriodMs = (clusters: number): number => LOG_POLL_MS * fleetPollScale(clusters);

/**
 * The window pod-log GETs are counted over: a whole number of log-poll periods, `minimumMs` at least. The active
 * tiers turn, and poll first, while the fleet syncs, before the window opens; a window shorter than a period (30 s
 * against 175 s at 3,500 clusters) then sees no poll at all, and one of a fraction of periods an uneven share.
 */
export function logPollWindowMs(periodMs: number, minimumMs = STEADY_SECONDS * 1000): number {
  return periodMs * Math.max(1, Math.ceil(minimumMs / periodMs));
}

/** Pod-log GETs the API servers answered in all (counted once authorized, however the request reached them). */
const logGets = (clusters: readonly FleetCluster[]) =>
  clusters.reduce((sum, running) => sum + (running.server.stats.snapshot().requests['pods/log:get'] ?? 0), 0);

/** Pod-log GETs per second on the API servers over the next `windowMs`, and the window's length in seconds. */
export async function logPollsOver(
  clusters: readonly FleetCluster[],
  windowMs: number,
): Promise<{ perSecond: number; seconds: number }> {
  const before = logGets(clusters);
  const started = performance.now();
  await sleep(windowMs);
  const seconds = (performance.now() - started) / 1000;
  return {
    perSecond: Math.round(((logGets(clusters) - before) / seconds) * 10) / 10,
    seconds: Math.round(seconds * 10) / 10,
  };
}

/** Pod-log GETs per second over a log window, and the window's length in seconds. */
export interface LogPollFigures {
  logPollsPerSecond: number;
  logPollWindowSeconds: number;
}

/**
 * Figures taken on the API servers once the fleet has synced: open watches and the clusters with an open
 * cluster-wide pod watch, read when the clusters that should be active hold it (see {@link waitForActiveTier}). From
 * then on, `logPolls` counts pod-log GETs per second over whole log-poll periods (see {@link logPollWindowMs}): the
 * caller goes on with its next phases meanwhile (a window is 175 s at 3,500 clusters), and awaits it before any
 * phase that cuts clusters off.
 */
export async function steadyState(options: {
  base: string;
  clusters: readonly FleetCluster[];
  /** The clusters mid-update (`--updating`), which must turn active. */
  updating: ReadonlySet<string>;
}) {
  const { clusters } = options;
  const activeWait = await waitForActiveTier(options.base, clusters, options.updating);
  const { heavyClusters, watches } = openWatches(clusters);
  const logPolls = logPollsOver(clusters, logPollWindowMs(logPollPeriodMs(clusters.length))).then(
    (logs): LogPollFigures => {
      console.log(`fleet bench: ${logs.perSecond} log GETs/s over ${logs.seconds} s`);
      return { logPollsPerSecond: logs.perSecond, logPollWindowSeconds: logs.seconds };
    },
  );
  return { figures: { heavyClusters, activeWait, watches }, logPolls };
}
