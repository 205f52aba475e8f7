import 'server-only';
import { KubeConfig } from '@kubernetes/client-node';
import type { ClusterHealthDto, ClusterSeriesDto, ClusterSummaryDto, StreamMessage } from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import { joinHealth, summaryOf } from '@/lib/cluster/join-hosted';
import { publicUrl, serverEnv } from '@/server/env';
import { registerMetricsSource, stopMetricsSources } from '@/server/metrics/sources';
import { ClusterEngine } from './cluster-engine';
import { createKubeConnection } from '@/server/kube/kube-connection';
import type { HostedClusterView } from './hosted-cluster-view';
import type { StreamSource } from './sse';
import { serviceMetrics, type FleetStats, type ServiceMetrics } from '@/server/observability/service-metrics';
import { onShutdown } from '@/server/observability/shutdown';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { getFindingHistory } from '@/server/history/history-store';

/** A fleet member as routes, the stream and incidents read it: an engine, a hosted view, or both joined. */
export interface FleetMember {
  id: string;
  name: string;
  health(): ClusterHealthDto;
  summary(): ClusterSummaryDto;
  series(from?: number, to?: number, max?: number): ClusterSeriesDto;
  snapshot(): Snapshot;
  now(): number;
  subscribe(listener: (message: StreamMessage) => void): () => void;
}

/**
 * A hosted cluster configured twice (its own context, and a HostedCluster on a management cluster): one member
 * under the context's id, with the management side's findings, NodePools and control plane joined in.
 */
function joinedMember(own: ClusterEngine, hosted: HostedClusterView): FleetMember {
  const health = () => joinHealth(own.health(), hosted.health());
  return {
    id: own.id,
    name: own.name,
    health,
    summary: () => summaryOf(health()),
    series: (from, to, max) => own.series(from, to, max),
    snapshot: () => own.snapshot(),
    now: () => own.now(),
    subscribe: (listener) => own.subscribe(listener),
  };
}

/**
 * Every cluster the server watches, one engine per kubeconfig context, plus every HostedCluster found on a
 * management cluster (id `<management-id>.<namespace>.<name>`), joined with its own context by cluster id.
 */
export class Fleet {
  private readonly engines = new Map<string, ClusterEngine>();

  constructor(engines: readonly ClusterEngine[]) {
    for (const engine of engines) this.engines.set(engine.id, engine);
  }

  ids(): string[] {
    return [...this.engines.keys()];
  }

  private joinCache: { at: number; joins: Map<string, HostedClusterView> } | undefined;

  /**
   * Own engines whose ClusterVersion has the cluster id of a HostedCluster on another engine, with that view.
   * Recomputed at most once a second: it scans every engine's hosted clusters.
   */
  private joins(): Map<string, HostedClusterView> {
    const now = Date.now();
    if (this.joinCache && now - this.joinCache.at < 1_000) return this.joinCache.joins;
    const joins = this.computeJoins();
    this.joinCache = { at: now, joins };
    return joins;
  }

  private computeJoins(): Map<string, HostedClusterView> {
    const byClusterId = new Map<string, ClusterEngine>();
    for (const engine of this.engines.values()) {
      const clusterID = engine.clusterID();
      if (clusterID) byClusterId.set(clusterID, engine);
    }
    const joined = new Map<string, HostedClusterView>();
    for (const engine of this.engines.values()) {
      for (const view of engine.hostedViews()) {
        const own = view.clusterID ? byClusterId.get(view.clusterID) : undefined;
        if (own && own !== engine) joined.set(own.id, view);
      }
    }
    return joined;
  }

  /** Every member: engines (joined where configured twice) and the hosted clusters only a management cluster sees. */
  members(): FleetMember[] {
    const joins = this.joins();
    const hidden = new Set([...joins.values()].map((view) => view.id));
    const out: FleetMember[] = [];
    for (const engine of this.engines.values()) {
      const view = joins.get(engine.id);
      out.push(view ? joinedMember(engine, view) : engine);
      for (const hosted of engine.hostedViews()) if (!hidden.has(hosted.id)) out.push(hosted);
    }
    return out;
  }

  get(id: string): FleetMember | undefined {
    const engine = this.engines.get(id);
    if (engine) {
      const view = this.joins().get(id);
      return view ? joinedMember(engine, view) : engine;
    }
    for (const owner of this.engines.values()) {
      const view = owner.hostedViews().find((candidate) => candidate.id === id);
      if (view) return view;
    }
    return undefined;
  }

  /**
   * The cluster that decides who may see a member: the member itself, or for a hosted cluster seen only from its
   * management cluster, that management cluster (where its HostedCluster and control plane live).
   */
  accessCluster(memberId: string): string | undefined {
    if (this.engines.has(memberId)) return memberId;
    for (const owner of this.engines.values()) {
      if (owner.hostedViews().some((view) => view.id === memberId)) return owner.id;
    }
    return undefined;
  }

  /** POSTs a review to one configured cluster (an engine id) with the service's identity. */
  review<T>(clusterId: string, path: string, body: unknown): Promise<T> {
    const engine = this.engines.get(clusterId);
    if (!engine) return Promise.reject(new Error(`no cluster "${clusterId}" in the fleet`));
    return engine.review<T>(path, body);
  }

  summaries(): ClusterSummaryDto[] {
    return this.members().map((member) => member.summary());
  }

  /** The engine that reads a member's sources: its own, or its management cluster's for a hosted-only member. */
  private engineOf(memberId: string): ClusterEngine | undefined {
    const owner = this.accessCluster(memberId);
    return owner === undefined ? undefined : this.engines.get(owner);
  }

  /** A viewer looked at a member (GET health): its cluster reads its active tier for the hold-down. */
  lookedAt(id: string): void {
    this.engineOf(id)?.look();
  }

  /**
   * Stream source over the given clusters (all when empty); `viewed` clusters (a page open on them) read their
   * active tier while the stream is subscribed and for the hold-down after.
   */
  streamSource(ids: readonly string[], viewed: readonly string[] = []): StreamSource {
    const wanted = ids.length > 0 ? new Set(ids) : undefined;
    const members = () => this.members().filter((member) => !wanted || wanted.has(member.id));
    return {
      snapshot: (): StreamMessage[] =>
        members().map((member) => ({
          type: 'health',
          clusterId: member.id,
          health: member.health(),
          summary: member.summary(),
        })),
      subscribe: (listener) => {
        const releases = [...new Set(viewed.flatMap((id) => this.engineOf(id) ?? []))].map((engine) => engine.view());
        // One subscription per engine: hosted views publish through the engine of their management cluster.
        const unsubscribers = [...this.engines.values()].map((engine) =>
          engine.subscribe((message) => {
            const joins = this.joins();
            // A hosted view joined with its own context speaks through the joined member.
            const own = [...joins].find(([, view]) => view.id === message.clusterId)?.[0];
            const id = own ?? message.clusterId;
            if (wanted && !wanted.has(id)) return;
            if (!joins.has(id)) {
              listener(message);
            } else if (message.type === 'health') {
              const member = this.get(id)!;
              listener({ type: 'health', clusterId: id, health: member.health(), summary: member.summary() });
            } else if (!own) {
              listener(message);
            }
          }),
        );
        return () => {
          unsubscribers.forEach((unsubscribe) => unsubscribe());
          releases.forEach((release) => release());
        };
      },
    };
  }

  /** Figures for the service's own metrics. */
  stats(): FleetStats {
    const sourcesByStatus: Record<string, number> = {};
    let watchEvents = 0;
    let relists = 0;
    for (const engine of this.engines.values()) {
      const stats = engine.watchStats();
      for (const status of stats.statuses) sourcesByStatus[status] = (sourcesByStatus[status] ?? 0) + 1;
      watchEvents += stats.events;
      relists += stats.relists;
    }
    const activeClusters = [...this.engines.values()].filter((engine) => engine.active()).length;
    return { sourcesByStatus, watchEvents, relists, clusters: this.members().length, activeClusters };
  }

  /** Clusters whose first sync has not settled yet (synced, or failed in a way only time or RBAC can fix). */
  unsettled(): string[] {
    return [...this.engines.values()].filter((engine) => !engine.settled()).map((engine) => engine.id);
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

/**
 * Builds and starts the fleet from a kubeconfig file: one cluster per context (or the listed contexts), recording
 * findings in `history` when given.
 */
export function startFleetFromKubeconfig(
  path: string,
  contexts?: readonly string[],
  history?: FindingHistoryRepository,
): Fleet {
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
  const pollScale = fleetPollScale(chosen.length);
  const engines = chosen.map((name) => {
    const connection = createKubeConnection(path, name);
    // Scrapes and alert polls run with the cluster's active tier (updating, a finding, a viewer).
    const metrics = registerMetricsSource(name, connection, pollScale);
    return new ClusterEngine({
      id: name,
      name,
      connection,
      latency: () => metrics.latency(),
      alerts: () => metrics.alerts(),
      metrics,
      pollScale,
      history,
    });
  });
  for (const engine of engines) engine.start();
  return new Fleet(engines);
}

/**
 * How much slower than for one cluster a fleet's periodic work runs: re-evaluations, log polls, metric scrapes and
 * alert polls. Events still re-evaluate a cluster at once; the periodic work only ages time-based rules and
 * refreshes corroboration. Up to 200 clusters nothing stretches; beyond, the fleet's request and evaluation rate
 * stays that of 200 (at 500 clusters the single-cluster periods took the whole core and changes queued behind them).
 */
export function fleetPollScale(clusters: number): number {
  return Math.max(1, clusters / 200);
}

/**
 * Feeds the service's metrics from the fleet: scrape-time figures and health signals read the members, and every
 * published health is looked at to time finished updates. Returns the function that stops the looking.
 */
export function reportToMetrics(fleet: Fleet, metrics: ServiceMetrics, url: string | undefined): () => void {
  metrics.observeFleet(() => fleet.stats());
  metrics.health.observe(() => fleet.members(), url);
  return fleet.streamSource([]).subscribe((message) => {
    if (message.type !== 'health') return;
    const member = fleet.get(message.clusterId);
    if (member) metrics.health.look(message.clusterId, message.health, member.now());
  });
}

const holder = globalThis as unknown as { __updateHealthFleet?: Fleet };

/** The process-wide fleet, started on first use from the server environment (survives dev hot reloads). */
export function getFleet(): Fleet {
  if (!holder.__updateHealthFleet) {
    const env = serverEnv();
    const url = publicUrl();
    const contexts = env.UPDATE_HEALTH_CONTEXTS?.split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const fleet = startFleetFromKubeconfig(env.UPDATE_HEALTH_KUBECONFIG, contexts, getFindingHistory());
    holder.__updateHealthFleet = fleet;
    onShutdown(() => fleet.stop());
    reportToMetrics(fleet, serviceMetrics(), url);
  }
  return holder.__updateHealthFleet;
}
