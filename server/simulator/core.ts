import { ServiceAccountTokens } from './access/service-account-tokens';
import { ManualClock } from './clock';
import { FaultInjector } from './faults';
import { MemoryPodLogs } from './pod-logs';
import { ProxyRegistry } from './pod-proxy';
import { seededRandom } from './random';
import { ResourceApi } from './resource-api';
import { InProcessClient } from './sim-client';
import { ObjectStore } from './store';
import type { Scenario, ScenarioContext, SimClient } from './types';

/** Default virtual start time of every simulated cluster. */
export const DEFAULT_START_TIME = Date.parse('2026-11-22T09:00:00Z');

/** Options of a simulated cluster. */
export interface SimulatedClusterOptions {
  /** Seed for `random()`, uids and generated names (default 1). */
  seed?: number;
  /** Virtual start time, epoch ms (default 2026-11-22T09:00:00Z). */
  startTime?: number;
  /** Events retained per resource type for watch resume (default 10,000). */
  historyLimit?: number;
}

/** One embedded cluster: store, API semantics, clock, logs, proxy targets and fault rules. */
export interface SimulatedCluster {
  clock: ManualClock;
  /** Client whose writes are attributed to the `simulator` field manager. */
  client: SimClient;
  as(manager: string): SimClient;
  logs: MemoryPodLogs;
  proxy: ProxyRegistry;
  store: ObjectStore;
  api: ResourceApi;
  random(): number;
  context: ScenarioContext;
  faults: FaultInjector;
  /** Bound service-account tokens issued by this cluster (managed-serviceaccount tokens). */
  serviceAccountTokens: ServiceAccountTokens;
}

/** Creates an empty simulated cluster (no CRDs, no objects). */
export function createSimulatedCluster(options: SimulatedClusterOptions = {}): SimulatedCluster {
  const seed = options.seed ?? 1;
  const clock = new ManualClock(options.startTime ?? DEFAULT_START_TIME);
  const store = new ObjectStore({ clock, seed, historyLimit: options.historyLimit });
  const api = new ResourceApi(store);
  const clients = new Map<string, SimClient>();
  const as = (manager: string): SimClient => {
    let client = clients.get(manager);
    if (!client) {
      client = new InProcessClient(api, manager);
      clients.set(manager, client);
    }
    return client;
  };
  const random = seededRandom(seed);
  const logs = new MemoryPodLogs();
  const proxy = new ProxyRegistry();
  const client = as('simulator');
  const context: ScenarioContext = { client, as, clock, random, logs, proxy };
  return {
    clock,
    client,
    as,
    logs,
    proxy,
    store,
    api,
    random,
    context,
    faults: new FaultInjector(),
    serviceAccountTokens: new ServiceAccountTokens(),
  };
}

/** Starts a scenario on a cluster: it creates its objects and registers its controllers on the clock. */
export function runScenario(cluster: SimulatedCluster, scenario: Scenario): void {
  scenario.start(cluster.context);
}
