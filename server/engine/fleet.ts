import 'server-only';
import { KubeConfig } from '@kubernetes/client-node';
import type {
  ClusterHealthDto,
  ClusterSeriesDto,
  ClusterSummaryDto,
  FleetMembershipDto,
  StreamMessage,
} from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import { joinHealth, summaryOf } from '@/lib/cluster/join-hosted';
import { serverEnv } from '@/server/env';
import { startMetricsSource, stopMetricsSources } from '@/server/metrics/sources';
import { ClusterEngine } from './cluster-engine';
import { createEndpointConnection, createKubeConnection } from '@/server/kube/kube-connection';
import type { ConnectableMember, FleetSource, MemberSpec, WaitingMember } from '@/server/fleet-sources/fleet-source';
import { mergeMembers } from '@/server/fleet-sources/merge-members';
import { kubeconfigSource } from '@/server/fleet-sources/kubeconfig-source';
import { hubSource } from '@/server/fleet-sources/hub-source';
import { hubSourceOptions } from '@/server/fleet-sources/hub-config';
import type { HostedClusterView } from './hosted-cluster-view';
import type { StreamSource } from './sse';
import { serviceMetrics, type FleetStats } from '@/server/observability/service-metrics';
import { onShutdown } from '@/server/observability/shutdown';

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

/** Builds the engine of a member a source found. */
export type EngineBuilder = (member: ConnectableMember, pollScale: number) => ClusterEngine;

/** How often membership is recomputed without a source change (cluster IDs learnt from ClusterVersions join rows). */
const RECONCILE_MS = 5_000;

/**
 * Every cluster the server watches: one engine per member its sources found (kubeconfig contexts, a hub's managed
 * clusters), kept in step with the sources' live sets, plus every HostedCluster found on a management cluster
 * (id `<management-id>.<namespace>.<name>`), joined with its own engine by cluster id.
 */
export class Fleet {
  private readonly engines = new Map<string, ClusterEngine>();
  /** Engines built from a source's member, with the fingerprint of the connection they were built with. */
  private readonly built = new Map<string, string>();
  private readonly sources: FleetSource[] = [];
  private readonly sets = new Map<FleetSource, readonly MemberSpec[]>();
  private waiting: WaitingMember[] = [];
  private readonly membershipListeners = new Set<(added: readonly ClusterEngine[]) => void>();
  private reconcileTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    engines: readonly ClusterEngine[] = [],
    private readonly build: EngineBuilder = buildEngine,
  ) {
    for (const engine of engines) this.engines.set(engine.id, engine);
  }

  /** Starts the sources; from now on the fleet follows their sets (members added, removed, rebuilt when edited). */
  follow(sources: readonly FleetSource[]): void {
    for (const source of sources) {
      this.sources.push(source);
      this.sets.set(source, []);
      source.start((members) => {
        this.sets.set(source, members);
        this.reconcile();
      });
    }
    this.reconcileTimer ??= setInterval(() => this.reconcile(), RECONCILE_MS);
    this.reconcileTimer.unref?.();
  }

  /** Brings the engines in line with the sources' sets. */
  reconcile(): void {
    if (this.stopped) return;
    const learned = new Map<string, string>();
    for (const engine of this.engines.values()) {
      const clusterID = engine.clusterID();
      if (clusterID) learned.set(engine.id, clusterID);
    }
    const plan = mergeMembers([...this.sets.values()], learned);
    const wanted = new Map(plan.connect.map((member) => [member.id, member]));
    let changed = false;
    for (const [id, fingerprint] of this.built) {
      if (wanted.get(id)?.fingerprint === fingerprint) continue;
      this.engines.get(id)?.stop();
      stopMetricsSources([id]);
      this.engines.delete(id);
      this.built.delete(id);
      changed = true;
    }
    const added: ClusterEngine[] = [];
    const pollScale = fleetPollScale(plan.connect.length);
    for (const member of plan.connect) {
      const discovery = {
        discoveredBy: member.discoveredBy,
        ...(member.reachability ? { reachability: member.reachability } : {}),
      };
      const existing = this.engines.get(member.id);
      if (existing) {
        existing.setDiscovery(discovery);
        continue;
      }
      const engine = this.build(member, pollScale);
      engine.setDiscovery(discovery);
      this.engines.set(member.id, engine);
      this.built.set(member.id, member.fingerprint);
      engine.start();
      added.push(engine);
    }
    this.waiting = plan.waiting;
    if (!changed && added.length === 0) return;
    this.joinCache = undefined;
    for (const listener of this.membershipListeners) listener(added);
  }

  /**
   * How many clusters the sources found, how many are connected (a source synced), and each that waits with its
   * reason: found but not reachable at all (no access provider), or a row none of whose sources has synced yet.
   */
  membership(): FleetMembershipDto {
    const members = this.members();
    const waitingRows = members.flatMap((member) => {
      const row = member.summary();
      if (row.sources.some((source) => source.status === 'synced')) return [];
      const failing = row.sources.find((source) => source.error);
      const reason = row.reachability
        ? `hub reports unavailable${row.reachability.message ? `: ${row.reachability.message}` : ''}`
        : failing
          ? `${failing.status}: ${failing.error!.code ? `${failing.error!.code} ` : ''}${failing.error!.message}`
          : 'connecting';
      const since = row.reachability?.since ?? row.sources.map((source) => source.since).sort()[0];
      return [{ id: row.id, name: row.name, discoveredBy: row.discoveredBy, reason, since }];
    });
    return {
      discovered: members.length + this.waiting.length,
      connected: members.length - waitingRows.length,
      waiting: [
        ...this.waiting.map(({ id, name, discoveredBy, waiting }) => ({ id, name, discoveredBy, ...waiting })),
        ...waitingRows.map((row) => ({
          ...row,
          discoveredBy: row.discoveredBy ?? { kind: 'kubeconfig' as const, name: '' },
          since: row.since ?? new Date().toISOString(),
        })),
      ],
      sources: this.sources.map((source) => source.status()),
    };
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

  /** Stream source over the given clusters (all when empty). */
  streamSource(ids: readonly string[]): StreamSource {
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
        // One subscription per engine: hosted views publish through the engine of their management cluster.
        const subscribeTo = (engine: ClusterEngine) =>
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
          });
        const unsubscribers = [...this.engines.values()].map(subscribeTo);
        // Engines a source adds later speak on streams opened before them (a removed engine falls silent).
        const onMembership = (added: readonly ClusterEngine[]) => unsubscribers.push(...added.map(subscribeTo));
        this.membershipListeners.add(onMembership);
        return () => {
          this.membershipListeners.delete(onMembership);
          unsubscribers.forEach((unsubscribe) => unsubscribe());
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
    return { sourcesByStatus, watchEvents, relists, clusters: this.members().length };
  }

  /** Clusters whose first sync has not settled yet (synced, or failed in a way only time or RBAC can fix). */
  unsettled(): string[] {
    return [...this.engines.values()].filter((engine) => !engine.settled()).map((engine) => engine.id);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.reconcileTimer);
    for (const source of this.sources) source.stop();
    stopMetricsSources(this.ids());
    for (const engine of this.engines.values()) engine.stop();
  }
}

/** The engine of a member: its connection (a kubeconfig context, or an endpoint with rotating credentials). */
export function buildEngine(member: ConnectableMember, pollScale: number): ClusterEngine {
  const { connection: how } = member;
  const connection =
    how.kind === 'kubeconfig'
      ? createKubeConnection(how.path, how.context, {}, how.credentials)
      : createEndpointConnection(how.endpoint, how.credentials);
  const metrics = startMetricsSource(member.id, connection, pollScale);
  return new ClusterEngine({
    id: member.id,
    name: member.name,
    connection,
    latency: () => metrics.latency(),
    alerts: () => metrics.alerts(),
    pollScale,
    discoveredBy: member.discoveredBy,
  });
}

/** Thrown when the configured kubeconfig cannot be used. */
export class FleetConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FleetConfigError';
  }
}

/**
 * Builds and starts the fleet from a kubeconfig file, one cluster per context (or the listed contexts), and keeps
 * following the file: contexts added, removed or edited later take effect without a restart.
 */
export function startFleetFromKubeconfig(path: string, contexts?: readonly string[]): Fleet {
  checkKubeconfig(path, contexts);
  const fleet = new Fleet();
  fleet.follow([kubeconfigSource(path, { contexts })]);
  return fleet;
}

/** Fails fast on a kubeconfig that cannot start a fleet (later edits that break it keep the last good set). */
function checkKubeconfig(path: string, contexts?: readonly string[]): void {
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

const holder = globalThis as unknown as { __updateHealthFleet?: Fleet };

/** The process-wide fleet, started on first use from the server environment (survives dev hot reloads). */
export function getFleet(): Fleet {
  if (!holder.__updateHealthFleet) {
    const env = serverEnv();
    const sources: FleetSource[] = [];
    if (env.UPDATE_HEALTH_KUBECONFIG) {
      const contexts = env.UPDATE_HEALTH_CONTEXTS?.split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      checkKubeconfig(env.UPDATE_HEALTH_KUBECONFIG, contexts);
      sources.push(kubeconfigSource(env.UPDATE_HEALTH_KUBECONFIG, { contexts }));
    }
    if (env.UPDATE_HEALTH_HUB_KUBECONFIG) sources.push(hubSource(hubSourceOptions(env)));
    const fleet = new Fleet();
    fleet.follow(sources);
    holder.__updateHealthFleet = fleet;
    onShutdown(() => fleet.stop());
    serviceMetrics().observeFleet(() => fleet.stats());
  }
  return holder.__updateHealthFleet;
}
