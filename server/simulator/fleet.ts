import { serveCluster, type ServedCluster } from './api-server';
import type { Identity } from './auth';
import { startSharedClockDriver, type ClockDriver } from './clock';
import { createSimulatedCluster, runScenario, type SimulatedCluster } from './core';
import { buildKubeconfig, type KubeconfigEntry } from './kubeconfig';
import { SCENARIOS, scenarioNamed } from './scenarios/registry';
import type { Scenario, ScenarioName } from './types';

/** Thrown when the fleet is asked for a scenario that does not exist. */
export class UnknownScenarioError extends Error {
  constructor(name: string) {
    const known = Object.keys(SCENARIOS);
    super(`unknown scenario "${name}" (available: ${known.length ? known.join(', ') : 'none registered'})`);
    this.name = 'UnknownScenarioError';
  }
}

/** Options of an embedded fleet. */
export interface FleetOptions {
  scenarios: ScenarioName[];
  /**
   * Number of clusters, cycling through `scenarios`, with ids `<scenario>-<i>` (i from 0). Default: one cluster per
   * scenario, named after it.
   */
  size?: number;
  /** Virtual time speed-up (default 10). */
  speed?: number;
  /** Base seed; each cluster gets `seed + index` (default 1). */
  seed?: number;
  /** First port; clusters use consecutive ports (default: any free ports). */
  basePort?: number;
  /** Real milliseconds between watch bookmarks (default 60 s). */
  bookmarkIntervalMs?: number;
  /** Real milliseconds between clock advances (default 100). */
  tickMs?: number;
  /** Serve HTTP/2 and WatchList (default true each): off, the API servers answer as older or proxied ones do. */
  http2?: boolean;
  watchList?: boolean;
  /**
   * Give each cluster a listening HTTPS API server (default true). `false`: clusters are reached only in process
   * through `server.dispatch`, as members behind an embedded hub's cluster-proxy (no port, no TLS per cluster).
   */
  listen?: boolean;
  /** Add the test-only XSS corpus ClusterExtension to extension-install-flap (for the UI's hostile-text tests). */
  xssProbe?: boolean;
}

/** One running cluster of a fleet. */
export interface FleetCluster {
  /** The kubeconfig context and cluster name: the scenario name, or `<scenario>-<i>` in a sized fleet. */
  id: string;
  name: ScenarioName;
  /** Its API server: listening, or the address a cluster reached only in process names itself by. */
  url: string;
  cluster: SimulatedCluster;
  server: ServedCluster;
  driver: ClockDriver;
}

/** A running fleet. */
export interface Fleet {
  clusters: FleetCluster[];
  /** Whether each cluster listens on its own port (`FleetOptions.listen`); if not, a hub's proxy dispatches to it. */
  listens: boolean;
  /** One kubeconfig with a context per cluster (context and cluster names = scenario names). */
  kubeconfig(identity: Identity): string;
  /** The kubeconfig entries of `kubeconfig`, to merge into another kubeconfig (the hub's). */
  kubeconfigEntries(identity: Identity): KubeconfigEntry[];
  close(): Promise<void>;
}

/** Resolves scenario names against the registry, throwing UnknownScenarioError for missing ones. */
export function resolveScenarios(names: readonly string[], options: { xssProbe?: boolean } = {}): Scenario[] {
  return names.map((name) => {
    const scenario = scenarioNamed(name as ScenarioName, options);
    if (!scenario) throw new UnknownScenarioError(name);
    return scenario;
  });
}

/**
 * Virtual seconds per real second when none is asked for: 10 for the scenario fleet, 1 from 50 clusters on (500
 * clusters at 10× cost the simulator more than a core and their API servers stop answering in time).
 */
export function defaultFleetSpeed(size: number | undefined): number {
  return size !== undefined && size >= 50 ? 1 : 10;
}

/**
 * Starts one simulated cluster and API server per scenario (listening on HTTPS unless `listen: false`), their
 * clocks advanced in real time by one shared timer.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const scenarios = resolveScenarios(options.scenarios, { xssProbe: options.xssProbe });
  const clusters: FleetCluster[] = [];
  const clock = startSharedClockDriver({ tickMs: options.tickMs });
  const close = async () => {
    clock.stop();
    await Promise.all(clusters.map((running) => running.server.close()));
  };
  try {
    const size = options.size ?? scenarios.length;
    for (let index = 0; index < size; index += 1) {
      const scenario = scenarios[index % scenarios.length];
      const id = options.size === undefined ? scenario.name : `${scenario.name}-${index}`;
      const cluster = createSimulatedCluster({ seed: (options.seed ?? 1) + index });
      runScenario(cluster, scenario);
      const driver = clock.add(cluster.clock, options.speed ?? 10);
      const server = await serveCluster(cluster, {
        listen: options.listen,
        address: `api.${id}.sim.invalid:6443`,
        port: options.basePort ? options.basePort + index : undefined,
        bookmarkIntervalMs: options.bookmarkIntervalMs,
        http2: options.http2,
        watchList: options.watchList,
        driver,
      }).catch((error: unknown) => {
        driver();
        throw error;
      });
      clusters.push({ id, name: scenario.name, url: server.url, cluster, server, driver });
    }
  } catch (error) {
    await close();
    throw error;
  }
  const kubeconfigEntries = (identity: Identity): KubeconfigEntry[] =>
    clusters.map((running) => ({
      name: running.id,
      server: running.url,
      caData: running.server.caData,
      token: running.server.tokens[identity],
    }));
  return {
    clusters,
    listens: options.listen ?? true,
    kubeconfig: (identity) => buildKubeconfig(kubeconfigEntries(identity)),
    kubeconfigEntries,
    close,
  };
}
