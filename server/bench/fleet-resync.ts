/**
 * The fleet bench's last phases: some clusters isolated (R13: black-holed, or a dead tunnel through the hub) while
 * the healthy ones keep changing, then every API server (or the cluster-proxy) restarted behind watch rate limiting
 * (R12), each cluster's recovery timed until a change made after the restart reaches the clients.
 */
import type { FleetCluster } from '@/server/simulator/fleet';
import { change, measureChanges } from './fleet-changes';
import type { FleetTopology } from './fleet-topology';
import type { StreamClient } from './stream-client';

/** Isolates the topology's candidates and times `changes` changes on the rest; returns them and their latencies. */
export async function isolationPhase(options: {
  base: string;
  clusters: readonly FleetCluster[];
  topology: FleetTopology;
  clients: StreamClient[];
  changes: number;
  stats: { superseded: number };
}): Promise<{ healthy: FleetCluster[]; latencies: number[] }> {
  options.topology.blackhole();
  const { candidates } = options.topology;
  const healthy = options.clusters.filter((running) => !candidates.includes(running));
  const latencies = await measureChanges(
    options.base,
    healthy,
    options.clients,
    options.changes,
    'isolated',
    options.stats,
  );
  return { healthy, latencies };
}

/**
 * Restarts the API servers (or the cluster-proxy) and returns, per healthy cluster, the time from the restart until a
 * change made after it reached every client.
 */
export async function resyncPhase(options: {
  topology: FleetTopology;
  healthy: FleetCluster[];
  clients: StreamClient[];
  viaHub: boolean;
}): Promise<number[]> {
  console.log(`fleet bench: restarting ${options.viaHub ? 'the cluster-proxy' : 'every API server'} ...`);
  const restartAt = performance.now();
  await options.topology.restart(options.healthy);
  return Promise.all(
    options.healthy.map(async (running, i) => {
      const marker = `bench-resync-${i}`;
      change(running, marker);
      const seen = await Promise.all(
        options.clients.map((client) => client.waitForChannel(running.id, marker, 10 * 60_000)),
      );
      return Math.max(...seen) - restartAt;
    }),
  );
}
