import 'server-only';
import type {
  ClusterHealthDto,
  ClusterSeriesDto,
  ClusterSummaryDto,
  FleetMembershipDto,
  StreamMessage,
} from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import { joinHealth } from '@/lib/cluster/join-hosted';
import { summaryOf } from '@/lib/cluster/cluster-summary';
import { rowSynced } from '@/lib/health/tiers';
import { rowWaiting } from '@/lib/cluster/row-sources';
import { publicUrl, serverEnv } from '@/server/env';
import { stopMetricsSources } from '@/server/metrics/sources';
import type { ClusterEngine } from './cluster-engine';
import { buildEngine, checkKubeconfig, type EngineBuilder } from './fleet-build';
import { SourcedEngines } from './sourced-engines';
import type { FleetSource } from '@/server/fleet-sources/fleet-source';
import { kubeconfigSource } from '@/server/fleet-sources/kubeconfig-source';
import { hubSource } from '@/server/fleet-sources/hub-source';
import { hubSourceOptions } from '@/server/fleet-sources/hub-config';
import type { HostedClusterView } from './hosted-cluster-view';
import type { StreamSource } from '@/server/http/sse';
import { serviceMetrics, type FleetStats, type ServiceMetrics } from '@/server/observability/service-metrics';
import { onShutdown } from '@/server/observability/shutdown';
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
 * Every cluster the server watches: one engine per member its sources found (kubeconfig contexts, a hub's managed
 * clusters), kept in step with the sources' live sets, plus every HostedCluster found on a management cluster
 * (id `<management-id>.<namespace>.<name>`), joined with its own engine by cluster id.
 */
export class Fleet {
  private readonly engines = new Map<string, ClusterEngine>();
  private readonly sourced: SourcedEngines;
  private readonly membershipListeners = new Set<(added: readonly ClusterEngine[]) => void>();

  constructor(engines: readonly ClusterEngine[] = [], build: EngineBuilder = buildEngine) {
    for (const engine of engines) this.engines.set(engine.id, engine);
    this.sourced = new SourcedEngines(this.engines, build, (added) => {
      this.joinCache = undefined;
      for (const listener of this.membershipListeners) listener(added);
    });
  }

  /** Starts the sources; from now on the fleet follows their sets (members added, removed, rebuilt when edited). */
  follow(sources: readonly FleetSource[]): void {
    this.sourced.follow(sources);
  }

  /** Brings the engines in line with the sources' sets now. */
  reconcile(): void {
    this.sourced.reconcile();
  }

  /**
   * How many clusters the sources found, how many are connected (a source synced) and synced (no source behind),
   * and each that waits with its reason: found but not reachable at all (no access provider), or a row none of whose
   * sources has synced yet. `rows` are every member's summary when the caller has them already.
   */
  membership(rows: readonly ClusterSummaryDto[] = this.summaries()): FleetMembershipDto {
    const waitingRows = rows.flatMap((row) => {
      const waiting = rowWaiting(row);
      return waiting ? [{ id: row.id, name: row.name, discoveredBy: row.discoveredBy, ...waiting }] : [];
    });
    const unconnectable = this.sourced.waiting();
    return {
      discovered: rows.length + unconnectable.length,
      connected: rows.length - waitingRows.length,
      synced: rows.filter(rowSynced).length,
      waiting: [
        ...unconnectable.map(({ id, name, discoveredBy, waiting }) => ({ id, name, discoveredBy, ...waiting })),
        ...waitingRows.map((row) => ({
          ...row,
          discoveredBy: row.discoveredBy ?? { kind: 'kubeconfig' as const, name: '' },
          since: row.since ?? new Date().toISOString(),
        })),
      ],
      sources: this.sourced.statuses(),
    };
  }

  ids(): string[] {
    return [...this.engines.keys()];
  }

  private joinCache:
    { at: number; joins: Map<string, HostedClusterView>; joinedViews: Map<string, string> } | undefined;

  /**
   * Own engines whose ClusterVersion has the cluster id of a HostedCluster on another engine, with that view.
   * Recomputed at most once a second: it scans every engine's hosted clusters.
   */
  private joins(): Map<string, HostedClusterView> {
    return this.joinState().joins;
  }

  private joinState(): { joins: Map<string, HostedClusterView>; joinedViews: Map<string, string> } {
    const now = Date.now();
    if (this.joinCache && now - this.joinCache.at < 1_000) return this.joinCache;
    const joins = this.computeJoins();
    const joinedViews = new Map([...joins].map(([own, view]) => [view.id, own]));
    this.joinCache = { at: now, joins, joinedViews };
    return this.joinCache;
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
        const subscribeTo = (engine: ClusterEngine) =>
          engine.subscribe((message) => {
            const addressed = this.addressed(message);
            if (addressed && (!wanted || wanted.has(addressed.clusterId))) listener(addressed);
          });
        const unsubscribers = [...this.engines.values()].map(subscribeTo);
        // Engines a source adds later speak on streams opened before them (a removed engine falls silent).
        const onMembership = (added: readonly ClusterEngine[]) => unsubscribers.push(...added.map(subscribeTo));
        this.membershipListeners.add(onMembership);
        return () => {
          this.membershipListeners.delete(onMembership);
          unsubscribers.forEach((unsubscribe) => unsubscribe());
          releases.forEach((release) => release());
        };
      },
    };
  }

  /**
   * A message an engine published, as its fleet member says it: unchanged, unless it is about a member joined from
   * a context and a hosted view. Then a health change of either side is the member's joined health, the member's
   * samples and transitions are its own engine's, and the hosted view says nothing under its own id.
   */
  private addressed(message: StreamMessage): StreamMessage | undefined {
    const { joins, joinedViews } = this.joinState();
    const memberId = joinedViews.get(message.clusterId) ?? message.clusterId;
    if (!joins.has(memberId)) return message;
    if (message.type === 'health') {
      const member = this.get(memberId)!;
      return { type: 'health', clusterId: memberId, health: member.health(), summary: member.summary() };
    }
    return memberId === message.clusterId ? message : undefined;
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
    this.sourced.stop();
    stopMetricsSources(this.ids());
    for (const engine of this.engines.values()) engine.stop();
  }
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
    const sources: FleetSource[] = [];
    if (env.UPDATE_HEALTH_KUBECONFIG) {
      const contexts = env.UPDATE_HEALTH_CONTEXTS?.split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      checkKubeconfig(env.UPDATE_HEALTH_KUBECONFIG, contexts);
      sources.push(kubeconfigSource(env.UPDATE_HEALTH_KUBECONFIG, { contexts }));
    }
    if (env.UPDATE_HEALTH_HUB_KUBECONFIG) sources.push(hubSource(hubSourceOptions(env)));
    const history = getFindingHistory();
    const fleet = new Fleet([], (member, pollScale) => buildEngine(member, pollScale, history));
    fleet.follow(sources);
    holder.__updateHealthFleet = fleet;
    onShutdown(() => fleet.stop());
    reportToMetrics(fleet, serviceMetrics(), url);
  }
  return holder.__updateHealthFleet;
}
