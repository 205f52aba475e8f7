import 'server-only';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterSummaryDto, StreamMessage } from '@/lib/api/dto';
import { serverEnv } from '@/server/env';
import { startMetricsSource, stopMetricsSources } from '@/server/metrics/sources';
import { ClusterEngine } from './cluster-engine';
import { createKubeConnection } from './kube-connection';
import type { StreamSource } from './sse';

/** Every cluster the server watches, one engine per kubeconfig context. */
export class Fleet {
  private readonly engines = new Map<string, ClusterEngine>();

  constructor(engines: readonly ClusterEngine[]) {
    for (const engine of engines) this.engines.set(engine.id, engine);
  }

  ids(): string[] {
    return [...this.engines.keys()];
  }

  get(id: string): ClusterEngine | undefined {
    return this.engines.get(id);
  }

  summaries(): ClusterSummaryDto[] {
    return [...this.engines.values()].map((engine) => engine.summary());
  }

  /** Stream source over the given clusters (all when empty). */
  streamSource(ids: readonly string[]): StreamSource {
    const engines = (ids.length > 0 ? ids : this.ids()).map((id) => this.engines.get(id)).filter((engine) => engine !== undefined);
    return {
      snapshot: (): StreamMessage[] => engines.map((engine) => ({
        type: 'health', clusterId: engine.id, health: engine.health(), summary: engine.summary(),
      })),
      subscribe: (listener) => {
        const unsubscribers = engines.map((engine) => engine.subscribe(listener));
        return () => unsubscribers.forEach((unsubscribe) => unsubscribe());
      },
    };
  }

  stop(): void {
    stopMetricsSources(this.ids());
    for (const engine of this.engines.values()) engine.stop();
  }
}

/** Thrown when the configured kubeconfig cannot be used. */
export class FleetConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FleetConfigError';
  }
}

/** Builds and starts the fleet from a kubeconfig file: one cluster per context (or the listed contexts). */
export function startFleetFromKubeconfig(path: string, contexts?: readonly string[]): Fleet {
  const kubeConfig = new KubeConfig();
  try {
    kubeConfig.loadFromFile(path);
  } catch (error) {
    throw new FleetConfigError(`cannot read kubeconfig ${path}: ${(error as Error).message}`);
  }
  const available = kubeConfig.getContexts().map((context) => context.name);
  const chosen = contexts && contexts.length > 0 ? contexts : available;
  const unknown = chosen.filter((name) => !available.includes(name));
  if (unknown.length > 0) throw new FleetConfigError(`kubeconfig ${path} has no context named ${unknown.join(', ')}`);
  if (chosen.length === 0) throw new FleetConfigError(`kubeconfig ${path} has no contexts`);
  const engines = chosen.map((name) => {
    const connection = createKubeConnection(path, name);
    const metrics = startMetricsSource(name, connection);
    return new ClusterEngine({ id: name, name, connection, latency: () => metrics.latency(), alerts: () => metrics.alerts() });
  });
  for (const engine of engines) engine.start();
  return new Fleet(engines);
}

const holder = globalThis as unknown as { __updateHealthFleet?: Fleet };

/** The process-wide fleet, started on first use from the server environment (survives dev hot reloads). */
export function getFleet(): Fleet {
  if (!holder.__updateHealthFleet) {
    const env = serverEnv();
    const contexts = env.UPDATE_HEALTH_CONTEXTS?.split(',').map((name) => name.trim()).filter(Boolean);
    holder.__updateHealthFleet = startFleetFromKubeconfig(env.UPDATE_HEALTH_KUBECONFIG, contexts);
  }
  return holder.__updateHealthFleet;
}
