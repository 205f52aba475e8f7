import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type {
  ClusterHealthDto,
  DiscoveredByDto,
  ReachabilityDto,
  ClusterSeriesDto,
  ClusterSummaryDto,
  SourceStateDto,
  StreamMessage,
  TransitionDto,
} from '@/lib/api/dto';
import type {
  ConditionTransition,
  Detector,
  HealthConfig,
  LatencySeries,
  ResourceNeed,
  Snapshot,
} from '@/lib/health/types';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import type { Alert } from '@/lib/health/update-progress/types';
import { DETECTORS, requiredLogs, requiredResources } from '@/lib/health/registry';
import { clusterInfo } from '@/lib/cluster/cluster-info';
import { assessCluster, type Assessment } from '@/lib/cluster/assess-cluster';
import { hostedClusterId, splitSnapshot, type HostedPart } from '@/lib/cluster/hosted-views';
import { conditionTransitions } from '@/lib/cluster/condition-transitions';
import type { ClusterConnection, SourceEvent, SourceHandle } from '@/server/kube/connection';
import { HostedClusterView } from './hosted-cluster-view';
import { LogPoller } from './log-poller';
import { OptionalSources } from './optional-sources';
import { PublishedHealth } from './published-health';
import { serviceMetrics } from '@/server/observability/service-metrics';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { FindingRecorder } from '@/server/history/finding-recorder';

/** Kinds whose condition history is kept (failure mode E and the olm Available=False count). */
const TRACKED_KINDS = new Set([
  'ClusterExtension',
  'ClusterOperator',
  'ClusterCatalog',
  'BundleDeployment',
  'HostedCluster',
  'NodePool',
]);
const MAX_TRANSITIONS = 2_000;
/** Pod churn arrives in bursts of thousands; anything else is rare and re-evaluated almost at once. */
const COALESCE_MS = { bulk: 250, other: 5 } as const;
const BULK_KINDS = new Set(['Pod', 'Event']);
/** How often a cluster is re-evaluated without events (time-based rules age); fleets stretch it (`pollScale`). */
const PERIODIC_EVALUATION_MS = 5_000;
/** How often the logs detectors corroborate with are fetched again (`pollScale` stretches it too). */
const LOG_POLL_MS = 10_000;
const SAMPLE_INTERVAL_MS = 1_000;

/** Options of a {@link ClusterEngine}. */
export interface ClusterEngineOptions {
  id: string;
  name: string;
  connection: ClusterConnection;
  detectors?: readonly Detector[];
  config?: HealthConfig;
  /** Pod-setup latency provider (metrics source); absent means "no metrics source". */
  latency?: () => LatencySeries | undefined;
  /** Firing and pending alerts (metrics source); absent or `undefined` means "no alerts source". */
  alerts?: () => Alert[] | undefined;
  /** How often APIs a cluster did not serve are looked for again (default 5 min). */
  optionalProbeMs?: number;
  /**
   * How many times slower than for a single cluster the periodic work runs (re-evaluation, log polls); a fleet
   * sets it from its size, see `fleetPollScale`. Default 1.
   */
  pollScale?: number;
  /** Where findings' lifecycles are recorded (and open findings' onsets read back on start); absent: not recorded. */
  history?: FindingHistoryRepository;
  /** Where the cluster was found (shown on its row). */
  discoveredBy?: DiscoveredByDto;
}

/** What the source that found a cluster says of it now. */
export interface Discovery {
  discoveredBy?: DiscoveredByDto;
  reachability?: ReachabilityDto;
}

type Listener = (message: StreamMessage) => void;

/**
 * When the object's status was last written, by the cluster's clock (managedFields, second resolution). Better
 * than the time we saw the event: a watcher that reconnects or relists sees several writes at once.
 */
function statusWriteTime(object: KubeObject): string | undefined {
  let latest: string | undefined;
  for (const entry of object.metadata.managedFields ?? []) {
    if (entry.subresource === 'status' && entry.time && (!latest || entry.time > latest)) latest = entry.time;
  }
  return latest;
}

/**
 * Watches what the registered detectors need on one cluster, keeps the condition-transition history and the
 * detectors' sample series in bounded memory, re-evaluates findings on change (coalesced) and publishes the result.
 */
export class ClusterEngine {
  readonly id: string;
  readonly name: string;
  private readonly connection: ClusterConnection;
  private readonly detectors: readonly Detector[];
  private readonly config: HealthConfig;
  private readonly sources: { resource: ResourceName; handle: SourceHandle }[] = [];
  private readonly lastTracked = new Map<string, KubeObject>();
  private readonly transitions: ConditionTransition[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly logs: LogPoller;
  private optional: OptionalSources | undefined;
  private readonly published: PublishedHealth;
  private scheduled: NodeJS.Timeout | undefined;
  private scheduledDelay = 0;
  private periodic: NodeJS.Timeout | undefined;
  private lastSampleAt = 0;
  private pendingTransitions: TransitionDto[] = [];
  private running = false;
  private readonly hosted = new Map<string, HostedClusterView>();
  private ownClusterID: string | undefined;
  private readonly recorders = new Map<string, FindingRecorder>();
  private discovery: Discovery;

  constructor(private readonly options: ClusterEngineOptions) {
    this.discovery = options.discoveredBy ? { discoveredBy: options.discoveredBy } : {};
    this.id = options.id;
    this.name = options.name;
    this.connection = options.connection;
    this.detectors = options.detectors ?? DETECTORS;
    this.config = options.config ?? DEFAULT_HEALTH_CONFIG;
    this.logs = new LogPoller(
      this.connection,
      requiredLogs(this.detectors),
      () => this.schedule(),
      LOG_POLL_MS * (options.pollScale ?? 1),
    );
    this.published = new PublishedHealth(this.id, {
      cluster: { ...clusterInfo(this.id, this.name, undefined), role: 'standalone', ...this.discovery },
      findings: [],
      updateProgress: null,
      updateRecommendations: null,
      sources: [],
    });
  }

  /** The HostedClusters found on this cluster (a management cluster), each a fleet member of its own. */
  hostedViews(): HostedClusterView[] {
    return [...this.hosted.values()];
  }

  /** Takes what the cluster's source says now (a hub reporting it unavailable); re-evaluates when it changed. */
  setDiscovery(discovery: Discovery): void {
    if (JSON.stringify(discovery) === JSON.stringify(this.discovery)) return;
    this.discovery = discovery;
    this.schedule(COALESCE_MS.other);
  }

  /** `spec.clusterID` of the cluster's own ClusterVersion (joins it with its HostedCluster on a management cluster). */
  clusterID(): string | undefined {
    return this.ownClusterID;
  }

  /** Starts every watch and the periodic re-evaluation (time-based rules age even without events). */
  start(): void {
    if (this.running) return;
    this.running = true;
    const needs = requiredResources(this.detectors);
    for (const need of needs.filter((candidate) => !candidate.optional)) this.startSource(need);
    this.optional = new OptionalSources(
      this.connection,
      needs.filter((need) => need.optional),
      (need) => {
        if (this.running) this.startSource(need);
      },
      this.options.optionalProbeMs,
    );
    this.optional.start();
    this.logs.start();
    this.recorder(this.id);
    // A random phase: engines started together (a fleet) would otherwise all re-evaluate in the same instant every
    // period, blocking the event loop for every one of them at once (500 clusters: seconds of stalled updates).
    const period = PERIODIC_EVALUATION_MS * (this.options.pollScale ?? 1);
    this.periodic = setTimeout(() => {
      this.schedule();
      this.periodic = setInterval(() => this.schedule(), period);
      this.periodic.unref?.();
    }, Math.random() * period);
    this.periodic.unref?.();
  }

  /** The history recorder of this cluster or one of its hosted clusters, started on first use. */
  private recorder(id: string): FindingRecorder | undefined {
    if (!this.options.history) return undefined;
    let recorder = this.recorders.get(id);
    if (!recorder) {
      recorder = new FindingRecorder(this.options.history, id, { onLoaded: () => this.schedule(COALESCE_MS.other) });
      this.recorders.set(id, recorder);
      recorder.start();
    }
    return recorder;
  }

  /** Settles once every history write queued so far has finished (tests, measurements). */
  async historyIdle(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((recorder) => recorder.idle()));
  }

  /** True once this cluster's open findings were read back from the history (or there is no history). */
  historyReady(): boolean {
    return !this.options.history || !!this.recorders.get(this.id)?.ready();
  }

  /**
   * Records the findings in the history and gives open ones their stored onset. Only an evaluation on complete data
   * (every source synced, or forbidden by RBAC for good, and the logs polled once) resolves what it does not see: a
   * restart must not resolve, then reopen, what it has not looked at yet.
   */
  private recorded(id: string, assessment: Assessment, now: number, sources: readonly SourceStateDto[]): Assessment {
    const recorder = this.recorder(id);
    if (!recorder) return assessment;
    const complete =
      this.logs.polled() &&
      sources.length > 0 &&
      sources.every((source) => source.status === 'synced' || source.status === 'forbidden');
    const findings = recorder.observe(assessment.health.findings, now, complete);
    return { ...assessment, health: { ...assessment.health, findings } };
  }

  private startSource(need: ResourceNeed): void {
    const { optional: _optional, ...watched } = need;
    void _optional;
    const handle = this.connection.watch(watched, (event) => this.onEvent(event));
    this.sources.push({ resource: need.resource, handle });
    handle.start();
  }

  /** Stops watches and timers; the last state stays readable. */
  stop(): void {
    this.running = false;
    this.optional?.stop();
    for (const { handle } of this.sources) handle.stop();
    this.sources.length = 0;
    this.logs.stop();
    for (const recorder of this.recorders.values()) recorder.stop();
    clearTimeout(this.periodic);
    clearInterval(this.periodic);
    clearTimeout(this.scheduled);
    this.connection.close();
  }

  /** Source statuses and summed watch counters, for the service's metrics. */
  watchStats(): { statuses: string[]; events: number; relists: number } {
    let events = 0;
    let relists = 0;
    for (const { handle } of this.sources) {
      const counters = handle.counters?.();
      events += counters?.events ?? 0;
      relists += counters?.relists ?? 0;
    }
    return { statuses: this.sources.map(({ handle }) => handle.state().status), events, relists };
  }

  /** True once every source has synced or failed in a way only time or RBAC can fix (not `pending`). */
  settled(): boolean {
    return (
      this.sources.length > 0 &&
      this.sources.every(({ handle }) => {
        const { status, error } = handle.state();
        return status !== 'pending' || error !== undefined;
      })
    );
  }

  /** Latest health, as `GET /api/clusters/{id}/health` serves it. */
  health(): ClusterHealthDto {
    return this.published.health();
  }

  /** One fleet row. */
  summary(): ClusterSummaryDto {
    return this.published.summary();
  }

  /** POSTs a TokenReview or SubjectAccessReview to this cluster with the service's identity. */
  review<T>(path: string, body: unknown): Promise<T> {
    return this.connection.review<T>(path, body);
  }

  /** The cluster's current time (epoch ms), as learnt from the API server. */
  now(): number {
    return this.connection.now();
  }

  /** Sample series (≤ `max` points each, at most 1,000) and transitions between `from` and `to` (epoch ms, cluster time). */
  series(from?: number, to?: number, max?: number): ClusterSeriesDto {
    return this.published.series(this.connection.now(), this.transitions, from, to, max);
  }

  /** The current snapshot detectors see (also what must-gather and incidents reuse). */
  snapshot(): Snapshot {
    const objects: Snapshot['objects'] = {};
    for (const { resource, handle } of this.sources) {
      const held = objects[resource];
      objects[resource] = held ? [...held, ...handle.objects()] : handle.objects();
    }
    return {
      objects,
      transitions: this.transitions,
      logs: this.logs.excerpts(),
      probes: [],
      latency: this.options.latency?.(),
      alerts: this.options.alerts?.(),
    };
  }

  /** Subscribes to stream messages; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Forces an evaluation now (tests and must-gather parity). */
  evaluateNow(): void {
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    this.evaluate();
  }

  private onEvent(event: SourceEvent): void {
    if (event.type !== 'synced' && TRACKED_KINDS.has(event.object.kind)) this.recordTransitions(event);
    this.schedule(event.type !== 'synced' && BULK_KINDS.has(event.object.kind) ? COALESCE_MS.bulk : COALESCE_MS.other);
  }

  private recordTransitions(event: Exclude<SourceEvent, { type: 'synced' }>): void {
    const { object } = event;
    const key = `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    if (event.type === 'deleted') {
      this.lastTracked.delete(key);
      return;
    }
    const found = conditionTransitions(
      this.lastTracked.get(key),
      object,
      statusWriteTime(object) ?? new Date(this.connection.now()).toISOString(),
    );
    this.lastTracked.set(key, object);
    if (found.length === 0) return;
    this.transitions.push(...found);
    if (this.transitions.length > MAX_TRANSITIONS)
      this.transitions.splice(0, this.transitions.length - MAX_TRANSITIONS);
    this.pendingTransitions.push(...found);
  }

  private schedule(delayMs: number = COALESCE_MS.bulk): void {
    if (!this.running) return;
    if (this.scheduled) {
      if (delayMs >= this.scheduledDelay) return;
      clearTimeout(this.scheduled);
    }
    this.scheduledDelay = delayMs;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      this.evaluate();
    }, delayMs);
    this.scheduled.unref?.();
  }

  private evaluate(): void {
    const stopTimer = serviceMetrics().evaluationSeconds.startTimer();
    try {
      this.evaluateOnce();
    } finally {
      stopTimer();
    }
  }

  private evaluateOnce(): void {
    const now = this.connection.now();
    const sources: SourceStateDto[] = this.sources.map(({ handle }) => handle.state());
    const split = splitSnapshot(this.snapshot());
    const assessment = this.recorded(
      this.id,
      assessCluster({
        id: this.id,
        name: this.name,
        snapshot: split.own,
        context: { now, config: this.config },
        sources,
        detectors: this.detectors,
        hostedClusterCount: split.hosted.length,
      }),
      now,
      sources,
    );
    this.ownClusterID = (split.own.objects.clusterversions?.[0]?.spec as { clusterID?: string } | undefined)?.clusterID;
    // Charts need at most a point a second, however often events re-evaluate.
    const sample = Date.now() - this.lastSampleAt >= SAMPLE_INTERVAL_MS;
    if (sample) this.lastSampleAt = Date.now();
    const discovered = {
      ...assessment,
      health: { ...assessment.health, cluster: { ...assessment.health.cluster, ...this.discovery } },
    };
    for (const message of this.published.update(discovered, now, sample)) this.emit(message);
    if (this.pendingTransitions.length > 0) {
      this.emit({ type: 'transitions', clusterId: this.id, transitions: this.pendingTransitions });
      this.pendingTransitions = [];
    }
    this.evaluateHosted(split.hosted, now, sources, sample);
  }

  /** Assesses every hosted part with the same detectors; hosted clusters that went away stop being members. */
  private evaluateHosted(parts: HostedPart[], now: number, sources: SourceStateDto[], sample: boolean): void {
    const seen = new Set<string>();
    for (const part of parts) {
      const id = hostedClusterId(this.id, part.namespace, part.name);
      seen.add(id);
      let view = this.hosted.get(id);
      if (!view) {
        view = new HostedClusterView(id, part.name, this.id, this, part.clusterID);
        this.hosted.set(id, view);
      }
      view.clusterID = part.clusterID;
      const assessment = this.recorded(
        id,
        assessCluster({
          id,
          name: part.name,
          snapshot: part.snapshot,
          context: { now, config: this.config },
          sources,
          detectors: this.detectors,
          role: 'hosted',
          managedBy: this.id,
        }),
        now,
        sources,
      );
      const cluster = { ...assessment.health.cluster, discoveredBy: { kind: 'management' as const, name: this.id } };
      const discovered = { ...assessment, health: { ...assessment.health, cluster } };
      for (const message of view.apply(discovered, part.snapshot, now, sample)) this.emit(message);
    }
    for (const id of this.hosted.keys()) {
      if (seen.has(id)) continue;
      this.hosted.delete(id);
      // A hosted cluster that went away has no findings left open.
      this.recorders.get(id)?.observe([], now, true);
    }
  }

  private emit(message: StreamMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch {
        // A broken subscriber (a closed stream) must not stop the others; the stream unsubscribes itself.
      }
    }
  }
}
