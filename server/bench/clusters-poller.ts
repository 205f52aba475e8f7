import { Worker } from 'node:worker_threads';

/**
 * One GET /api/clusters as the poller saw it: its latency and, per row, how many sources it has, how many of those
 * that are behind are in each status, and whether the cluster reads its active tier.
 */
export interface ClustersSample {
  /** Undefined when the request failed or was not answered with 200. */
  latencyMs?: number;
  rows?: { id: string; sources: number; behind: Record<string, number>; active: boolean }[];
}

// Plain JavaScript for an `eval` worker: fetch, parse and boil each row down to its sources behind by status and its
// tier off the main thread.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, intervalMs } = workerData;
(async () => {
  for (;;) {
    const askedAt = performance.now();
    let rows;
    try {
      const response = await fetch(url);
      if (response.ok) {
        rows = (await response.json()).clusters.map((row) => {
          const behind = {};
          for (const source of row.sources.behind) behind[source.status] = (behind[source.status] || 0) + 1;
          return { id: row.id, sources: row.sources.total, behind, active: row.activity?.tier === 'active' };
        });
      } else await response.arrayBuffer();
    } catch {}
    parentPort.postMessage({ latencyMs: rows ? performance.now() - askedAt : undefined, rows });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, intervalMs - (performance.now() - askedAt))));
  }
})();
`;

/**
 * Times GET `url` every `intervalMs` (back to back when slower) from a worker thread: at thousands of clusters the
 * answer is tens of megabytes, and parsing it on the bench's main thread would take the time the embedded API
 * servers need. `next()` resolves with the next sample, or undefined after `waitMs` without one.
 */
export function clustersPoller(url: string, intervalMs: number) {
  const worker = new Worker(WORKER, { eval: true, workerData: { url, intervalMs } });
  const samples: ClustersSample[] = [];
  let waiting: ((sample: ClustersSample | undefined) => void) | undefined;
  worker.on('message', (sample: ClustersSample) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(sample);
    } else samples.push(sample);
  });
  return {
    next(waitMs: number): Promise<ClustersSample | undefined> {
      const queued = samples.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          resolve(undefined);
        }, waitMs);
        waiting = (sample) => {
          clearTimeout(timer);
          resolve(sample);
        };
      });
    },
    close: () => worker.terminate(),
  };
}
