import 'server-only';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { HealthSignals } from './health-signals';

/** What the fleet reports at scrape time (kept as a callback so this module never imports the engine). */
export interface FleetStats {
  /** Watched sources by cluster-independent status. */
  sourcesByStatus: Record<string, number>;
  /** Reflector counters summed over every source since the process started. */
  watchEvents: number;
  relists: number;
  clusters: number;
  /** Configured clusters reading their active tier (cluster-wide pods, logs, metrics, alerts). */
  activeClusters: number;
}

/** A counter following a total the fleet keeps (read at scrape time; it only grows, so a smaller reading is ignored). */
function followTotal(registry: Registry, name: string, help: string, read: () => number | undefined): void {
  let last = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = read() ?? last;
      if (now > last) this.inc(now - last);
      last = Math.max(last, now);
    },
  });
}

/**
 * The service's own Prometheus metrics: Node's default process metrics plus the watch layer, detector evaluation,
 * SSE clients and the fleet's health signals. One registry per process (kept on globalThis across dev reloads).
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private fleetStats: (() => FleetStats) | undefined;
  readonly evaluationSeconds: Histogram;
  readonly sseClients: Gauge;
  readonly sseSlowClientsEnded: Counter;
  readonly httpSeconds: Histogram<'route' | 'method' | 'code'>;
  /** The fleet's findings and update state, for the alert rules. */
  readonly health: HealthSignals;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // Four metrics read the fleet's statistics, which walk every source of every cluster: once per scrape.
    let cached: { at: number; stats: FleetStats | undefined } | undefined;
    const stats = () => {
      if (!cached || Date.now() - cached.at > 1_000) cached = { at: Date.now(), stats: this.fleetStats?.() };
      return cached.stats;
    };
    new Gauge({
      name: 'update_health_watch_sources',
      help: 'Watched sources (one per resource and cluster) by status.',
      labelNames: ['status'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [status, count] of Object.entries(stats()?.sourcesByStatus ?? {})) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'update_health_clusters',
      help: 'Configured clusters (fleet members, hosted clusters included).',
      registers: [this.registry],
      collect() {
        this.set(stats()?.clusters ?? 0);
      },
    });
    new Gauge({
      name: 'update_health_active_clusters',
      help: 'Configured clusters reading their active tier of sources (updating, with a finding, or looked at).',
      registers: [this.registry],
      collect() {
        this.set(stats()?.activeClusters ?? 0);
      },
    });
    followTotal(
      this.registry,
      'update_health_watch_events_total',
      'Object events delivered by every watch (relist events included).',
      () => stats()?.watchEvents,
    );
    followTotal(
      this.registry,
      'update_health_watch_relists_total',
      'LISTs started again from scratch because a resourceVersion expired (410).',
      () => stats()?.relists,
    );
    this.evaluationSeconds = new Histogram({
      name: 'update_health_detector_evaluation_seconds',
      help: 'Time to run every detector over one cluster snapshot.',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [this.registry],
    });
    this.sseClients = new Gauge({
      name: 'update_health_sse_clients',
      help: 'Connected live-update streams.',
      registers: [this.registry],
    });
    this.sseSlowClientsEnded = new Counter({
      name: 'update_health_sse_slow_clients_ended_total',
      help: 'Live-update streams ended because the client fell too far behind (it reconnects to a fresh snapshot).',
      registers: [this.registry],
    });
    this.httpSeconds = new Histogram({
      name: 'update_health_http_request_duration_seconds',
      help: 'Time from request to response headers, by route pattern (the event stream: until it opened), method and status.',
      labelNames: ['route', 'method', 'code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    this.health = new HealthSignals(this.registry);
  }

  /** The whole scrape in the text format: the registry's metrics, then the fleet's per-cluster health families. */
  async exposition(): Promise<string> {
    return `${await this.registry.metrics()}\n${this.health.exposition()}`;
  }

  /** Where scrape-time fleet figures come from. */
  observeFleet(stats: () => FleetStats): void {
    this.fleetStats = stats;
  }
}

const holder = globalThis as unknown as { __updateHealthServiceMetrics?: ServiceMetrics };

/** The process-wide metrics. */
export function serviceMetrics(): ServiceMetrics {
  holder.__updateHealthServiceMetrics ??= new ServiceMetrics();
  return holder.__updateHealthServiceMetrics;
}
