import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { serveCluster } from '@/server/simulator/api-server';
import type { Fleet, FleetCluster } from '@/server/simulator/fleet';
import { HUB_CONTEXT, fleetMembers, startHub } from '@/server/simulator/hub/serve-hub';
import { startTcpRelay, type TcpRelay } from '@/server/testing/tcp-relay';

/** Clusters the isolation phase cuts off (at most half of a smaller fleet). */
export const BLACKHOLED = 20;

/** How the fleet bench's dashboard reaches the embedded clusters, and the faults each way has. */
export interface FleetTopology {
  /** The dashboard's arguments naming its clusters. */
  dashboardArgs: string[];
  /** Ports of the API servers (and proxy) the dashboard connects to: its `sockets` are counted on them. */
  apiPorts: Set<number>;
  /** The clusters `blackhole` cuts off. */
  candidates: FleetCluster[];
  /** Cuts the candidates off: connections stay open and carry nothing, in either direction. */
  blackhole(): void;
  /**
   * The R12 restart: `clusters` rate-limit watches (429 + Retry-After), then every connection to them drops (their
   * API servers restart, or the cluster-proxy in front of them does).
   */
  restart(clusters: FleetCluster[]): Promise<void>;
  close(): Promise<void>;
}

const rateLimitWatches = (running: FleetCluster) =>
  running.cluster.faults.add({ verb: 'watch', kind: 'status', status: 429, retryAfterSeconds: 5, count: 40 });

/**
 * Management clusters are never black-holed (their hosted rows would double-count), and at most half the others:
 * the isolation phase times changes on the healthy ones, so a small fleet keeps some.
 */
const candidatesOf = (fleet: Fleet) => {
  const eligible = fleet.clusters.filter((running) => running.name !== 'hypershift-management');
  const count = Math.min(BLACKHOLED, Math.floor(fleet.clusters.length / 2));
  return count === 0 ? [] : eligible.slice(-count);
};

/**
 * Direct: a kubeconfig with a context per cluster; the black-hole candidates are reached through TCP relays that
 * can stop relaying, and the restart restarts each API server on its port.
 */
export async function directTopology(fleet: Fleet, dir: string): Promise<FleetTopology> {
  const candidates = candidatesOf(fleet);
  const relays: TcpRelay[] = [];
  for (const running of candidates) relays.push(await startTcpRelay(new URL(running.url)));
  const entries = fleet.clusters.map((running) => {
    const i = candidates.indexOf(running);
    return {
      name: running.id,
      server: i >= 0 ? relays[i].url : running.url,
      caData: running.server.caData,
      token: running.server.tokens.reader,
    };
  });
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, buildKubeconfig(entries), { mode: 0o600 });
  return {
    dashboardArgs: ['--kubeconfig', kubeconfig],
    apiPorts: new Set(entries.map((entry) => Number(new URL(entry.server).port))),
    candidates,
    blackhole: () => {
      for (const r of relays) r.blackhole();
    },
    restart: async (clusters) => {
      for (const running of clusters) {
        rateLimitWatches(running);
        await running.server.close();
        running.server = await serveCluster(running.cluster, {
          port: Number(new URL(running.url).port),
          driver: running.driver,
        });
      }
    },
    close: async () => {
      for (const r of relays) await r.close();
    },
  };
}

/**
 * Through the embedded ACM hub: the dashboard gets the hub's kubeconfig only, finds the clusters from ClusterProfiles
 * and reaches every one through cluster-proxy (which hands requests to members in process when they do not listen).
 * The black hole is a dead tunnel in the proxy; the restart is the proxy's.
 */
export async function hubTopology(fleet: Fleet, dir: string): Promise<FleetTopology> {
  const hub = await startHub(fleetMembers(fleet), { realTime: true });
  const kubeconfig = join(dir, 'hub-kubeconfig.yaml');
  writeFileSync(kubeconfig, hub.kubeconfig('reader'), { mode: 0o600 });
  const candidates = candidatesOf(fleet);
  return {
    dashboardArgs: ['--hub', `${kubeconfig}:${HUB_CONTEXT}`, '--hub-namespace', hub.namespace],
    apiPorts: new Set([hub.server.url, hub.proxy.url].map((url) => Number(new URL(url).port))),
    candidates,
    blackhole: () => {
      for (const running of candidates) hub.faults.set({ cluster: running.id, blackhole: true });
    },
    restart: async (clusters) => {
      for (const running of clusters) rateLimitWatches(running);
      await hub.proxy.restart();
    },
    close: () => hub.close(),
  };
}
