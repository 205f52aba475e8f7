/** The fleet bench's steady-state figures, counted on the API servers once the fleet has synced. */
import type { FleetCluster } from '@/server/simulator/fleet';

/** How long after the first sync the fleet runs before its steady-state figures (heavy clusters, watches) are taken. */
const STEADY_SECONDS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watch request (list-then-watch or WatchList) as the API server sees it. */
const isWatch = (query: string): boolean => /(^|&)watch=(true|1)(&|$)/.test(query);

/**
 * Figures taken on the API servers after the fleet ran {@link STEADY_SECONDS} past its first sync: clusters with an
 * open cluster-wide pod watch, open watches, and pod-log GETs per second over that period.
 */
export async function steadyState(clusters: readonly FleetCluster[]) {
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
