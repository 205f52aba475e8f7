import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';
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
import type { ConditionTransition, Detector, HealthConfig, LatencySeries, Snapshot } from '@/lib/health/types';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import type { Alert } from '@/lib/health/update-progress/types';
import { DETECTORS } from '@/lib/health/registry';
import { clusterInfo } from '@/lib/cluster/cluster-info';
import { assessCluster, type Assessment } from '@/lib/cluster/assess-cluster';
import { hostedClusterId, splitSnapshot, type HostedPart } from '@/lib/cluster/hosted-views';
import { conditionTransitions } from '@/lib/cluster/condition-transitions';
import type { ClusterConnection, SourceEvent } from '@/server/kube/connection';
import { HostedClusterView } from './hosted-cluster-view';
import { SourceTiers, type TierService } from './source-tiers';
import { PublishedHealth, findingsCite } from './published-health';
import { evaluationPacer } from './evaluation-pacer';
import { FirstSync } from './first-sync';
import { serviceMetrics } from '@/server/observability/service-metrics';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { FindingRecorder } from '@/server/history/finding-recorder';
import { sourceUpToDate } from '@/lib/health/tiers';
import { unreadCause, updateStateOf } from '@/lib/cluster/update-state';
import { isLeaseRenewal } from '@/lib/health/shared/workload-math';
import { refOf } from '@/lib/k8s/refs';

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
export const LOG_POLL_MS = 10_000;
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
  /**
   * The polling behind `latency` and `alerts` (a metrics source), run with the active tier; absent: polled by whoever
   * provides them. Idle, the snapshot carries neither; until its first poll ended, the latency is not read yet.
   */
  metrics?: TierService & { polled(): boolean };
  /** Tiers of sources (default on): an idle cluster reads only its always tier; see `lib/health/tiers.ts`. */
  tiers?: { enabled?: boolean; holdDownMs?: number };
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
  private readonly tiers: SourceTiers;
  /** The last version seen of each object a rule compares with its next (condition transitions, Lease renewals). */
  private readonly lastSeen = new Map<string, KubeObject>();
  private readonly transitions: ConditionTransition[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly published: PublishedHealth;
  private scheduled: NodeJS.Timeout | undefined;
  /** When the scheduled evaluation is due (epoch ms). */
  private scheduledAt = 0;
  private readonly firstSync: FirstSync;
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
    this.tiers = new SourceTiers({
      connection: this.connection,
      detectors: this.detectors,
      onEvent: (event) => this.onEvent(event),
      onChange: () => this.scheduleSourceChange(COALESCE_MS.other),
      logPollMs: LOG_POLL_MS * (options.pollScale ?? 1),
      optionalProbeMs: options.optionalProbeMs,
      services: options.metrics ? [options.metrics] : [],
      enabled: options.tiers?.enabled,
      holdDownMs: options.tiers?.holdDownMs,
    });
    this.firstSync = new FirstSync({
      alwaysSettled: () => this.tiers.settled('always'),
      allSettled: () => this.tiers.settled(),
    });
    this.published = new PublishedHealth(this.id, {
      cluster: { ...clusterInfo(this.id, this.name, undefined), role: 'standalone', ...this.discovery },
      findings: [],
      updateProgress: null,
      updateState: updateStateOf({
        progress: null,
        history: [],
        requestedVersion: null,
        findings: [],
        unknown: unreadCause([], 'clusterversions', 'ClusterVersion'),
      }),
      updateRecommendations: null,
      sources: [],
    });
  }

  /** The HostedClusters found on this cluster (a management cluster), each a fleet member of its own. */
  hostedViews(): HostedClusterView[] {
    return [...this.hosted.values()];
  }

  /** `spec.clusterID` of the cluster's own ClusterVersion (joins it with its HostedCluster on a management cluster). */
  clusterID(): string | undefined {
    return this.ownClusterID;
  }

  /**
   * Starts the always tier's watches and the periodic re-evaluation (time-based rules age even without events); the
   * active tier starts when the cluster turns active.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.firstSync.start();
    this.tiers.start();
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
   * (every source synced, or forbidden by RBAC for good, and the logs and metrics polled once) resolves what it does
   * not see: a restart must not resolve, then reopen, what it has not looked at yet.
   */
  private recorded(id: string, assessment: Assessment, now: number, sources: readonly SourceStateDto[]): Assessment {
    const recorder = this.recorder(id);
    // Onsets and resolutions are cluster times: our own clock's guess would open episodes the cluster never had.
    if (!recorder || !this.connection.clockHeard()) return assessment;
    // What an idle cluster does not read is not looked at: its findings resolve with the hold-down behind them.
    const complete =
      this.tiers.logsPolled() &&
      !this.metricsUnread() &&
      sources.length > 0 &&
      sources.every((source) => sourceUpToDate(source) || source.status === 'forbidden');
    const findings = recorder.observe(assessment.health.findings, now, complete);
    return { ...assessment, health: { ...assessment.health, findings } };
  }

  /** The metrics source runs (the active tier) and has not ended its first poll: the latency is not known yet. */
  private metricsUnread(): boolean {
    return !!this.options.metrics && this.tiers.active() && !this.options.metrics.polled();
  }

  /** True while the active tier runs (updating, a finding, a viewer, or within the hold-down after them). */
  active(): boolean {
    return this.tiers.active();
  }

  /**
   * A viewer has this cluster open (its detail stream) until the returned function is called: the cluster turns
   * active within one evaluation and stays so for the hold-down after the last viewer left.
   */
  view(): () => void {
    const release = this.tiers.view();
    this.schedule(COALESCE_MS.other);
    return release;
  }

  /** A viewer looked at this cluster once (GET health): active within one evaluation, for the hold-down. */
  look(): void {
    this.tiers.look();
    this.schedule(COALESCE_MS.other);
  }

  /** Stops watches and timers; the last state stays readable. */
  stop(): void {
    this.running = false;
    this.tiers.stop();
    for (const recorder of this.recorders.values()) recorder.stop();
    clearTimeout(this.periodic);
    clearInterval(this.periodic);
    clearTimeout(this.scheduled);
    this.firstSync.stop();
    this.scheduled = undefined;
    evaluationPacer().cancel(this);
    this.connection.close();
  }

  /** Latest health, as `GET /api/clusters/{id}/health` serves it. */
  /** Source statuses and summed watch counters, for the service's metrics. */
  watchStats(): { statuses: string[]; events: number; relists: number } {
    let events = 0;
    let relists = 0;
    const handles = this.tiers.handles();
    for (const handle of handles) {
      const counters = handle.counters?.();
      events += counters?.events ?? 0;
      relists += counters?.relists ?? 0;
    }
    return {
      statuses: this.tiers.watchedStatuses(),
      events,
      relists,
    };
  }

  /** Takes what the cluster's source says now (a hub reporting it unavailable); re-evaluates when it changed. */
  setDiscovery(discovery: Discovery): void {
    if (JSON.stringify(discovery) === JSON.stringify(this.discovery)) return;
    this.discovery = discovery;
    this.schedule(COALESCE_MS.other);
  }

  /** True once every source has synced or failed in a way only time or RBAC can fix (not `pending`). */
  settled(): boolean {
    return this.tiers.settled();
  }

  /** Calls `listener` once the first sync settled (see {@link FirstSync.onSettled}); returns its cancel. */
  onFirstSync(listener: () => void): () => void {
    return this.firstSync.onSettled(listener);
  }

  health(): ClusterHealthDto {
    return this.published.health();
  }

  /** One fleet row. */
  summary(): ClusterSummaryDto {
    return this.published.summary();
  }

  /** The cluster's current time (epoch ms), as learnt from the API server. */
  /** POSTs a TokenReview or SubjectAccessReview to this cluster with the service's identity. */
  review<T>(path: string, body: unknown): Promise<T> {
    return this.connection.review<T>(path, body);
  }

  now(): number {
    return this.connection.now();
  }

  /** Sample series (≤ `max` points each, at most 1,000) and transitions between `from` and `to` (epoch ms, cluster time). */
  series(from?: number, to?: number, max?: number): ClusterSeriesDto {
    return this.published.series(this.connection.now(), this.transitions, from, to, max);
  }

  /** The current snapshot detectors see (also what must-gather and incidents reuse). */
  snapshot(): Snapshot {
    const active = this.tiers.active();
    return {
      objects: this.tiers.objects(),
      transitions: this.transitions,
      logs: this.tiers.excerpts(),
      probes: [],
      // Metrics and alerts are the active tier's: idle, what a stopped source last held is not current.
      latency: active ? this.options.latency?.() : undefined,
      alerts: active ? this.options.alerts?.() : undefined,
      ...(active ? {} : { idle: true }),
      ...(this.metricsUnread() ? { metricsUnread: true } : {}),
    };
  }

  /** Subscribes to stream messages; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True while an evaluation is scheduled and its coalesce has not passed (tests and measurements wait on it). */
  evaluationDue(): boolean {
    return this.scheduled !== undefined;
  }

  /** Forces an evaluation now (tests and must-gather parity). */
  evaluateNow(): void {
    clearTimeout(this.scheduled);
    this.scheduled = undefined;
    evaluationPacer().cancel(this);
    this.evaluate();
  }

  private onEvent(event: SourceEvent): void {
    if (!('object' in event)) {
      this.scheduleSourceChange(COALESCE_MS.other);
      return;
    }
    const previous = this.rememberPrevious(event);
    if (TRACKED_KINDS.has(event.object.kind)) this.recordTransitions(event, previous);
    if (this.renewalOnly(event, previous)) return;
    this.scheduleSourceChange(BULK_KINDS.has(event.object.kind) ? COALESCE_MS.bulk : COALESCE_MS.other, false);
  }

  /**
   * A Lease renewed by its holder and nothing else (`isLeaseRenewal`) is not evaluated: a renewed Lease is not
   * expired, and expiry is found by the periodic evaluation (rules that age). It is while a published finding cites
   * the Lease (the renewal may clear it) and until the first sync settled. The cache holds the renewed Lease either
   * way: the next evaluation reads its renewTime. catalogd renews every 26 s: a fleet's worth of evaluations.
   */
  private renewalOnly(event: Extract<SourceEvent, { object: KubeObject }>, previous: KubeObject | undefined): boolean {
    const { object } = event;
    if (event.type !== 'modified' || !this.firstSync.isSettled() || !isLeaseRenewal(previous, object)) return false;
    const ref = refOf(object);
    return ![this.health(), ...this.hostedViews().map((view) => view.health())].some((health) =>
      findingsCite(health, ref),
    );
  }

  /** A source's objects (`status` false) or state changed: during the first sync, at most one evaluation per window. */
  private scheduleSourceChange(delayMs: number, status = true): void {
    this.schedule(this.firstSync.delayFor(delayMs, status));
  }

  /** Keeps the object of `event` as the last seen of its kind (for the kinds a rule compares); returns the one before. */
  private rememberPrevious(event: Extract<SourceEvent, { object: KubeObject }>): KubeObject | undefined {
    const { object } = event;
    if (!TRACKED_KINDS.has(object.kind) && object.kind !== 'Lease') return undefined;
    // Joined, not a template: a template's result is a rope of several strings, and each cluster keeps one per object.
    const key = [object.kind, object.metadata.namespace ?? '', object.metadata.name].join('/');
    const previous = this.lastSeen.get(key);
    if (event.type === 'deleted') this.lastSeen.delete(key);
    else this.lastSeen.set(key, object);
    return previous;
  }

  private recordTransitions(
    event: Extract<SourceEvent, { object: KubeObject }>,
    previous: KubeObject | undefined,
  ): void {
    const { object } = event;
    if (event.type === 'deleted') return;
    const found = conditionTransitions(
      previous,
      object,
      statusWriteTime(object) ?? new Date(this.connection.now()).toISOString(),
    );
    if (found.length === 0) return;
    this.transitions.push(...found);
    if (this.transitions.length > MAX_TRANSITIONS)
      this.transitions.splice(0, this.transitions.length - MAX_TRANSITIONS);
    this.pendingTransitions.push(...found);
  }

  private schedule(delayMs: number = COALESCE_MS.bulk): void {
    if (!this.running) return;
    const due = Date.now() + delayMs;
    if (this.scheduled) {
      if (due >= this.scheduledAt) return;
      clearTimeout(this.scheduled);
    }
    this.scheduledAt = due;
    this.scheduled = setTimeout(() => {
      this.scheduled = undefined;
      // In the fleet's next slice of evaluations, not at once: the event loop answers requests between slices.
      evaluationPacer().run(this, () => {
        if (this.running) this.evaluate();
      });
    }, delayMs);
    this.scheduled.unref?.();
  }

  private evaluate(): void {
    this.firstSync.evaluating();
    const stopTimer = serviceMetrics().evaluationSeconds.startTimer();
    try {
      this.evaluateOnce();
    } finally {
      stopTimer();
    }
    this.firstSync.evaluated();
  }

  private evaluateOnce(): void {
    const now = this.connection.now();
    const sources: SourceStateDto[] = this.tiers.sourceStates();
    const split = splitSnapshot(this.snapshot());
    const assessed = this.recorded(
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
    const hosted = split.hosted.map((part) => this.assessHosted(part, now, sources));
    // A new tier is published with its own sources and snapshot: assessed again at once (only on a change).
    const healths = [assessed, ...hosted.map((entry) => entry.assessment)].map((a) => a.health);
    if (this.tiers.decide(healths, split.own.objects.nodes)) {
      return this.evaluateOnce();
    }
    const activity = this.tiers.activity();
    const withActivity = (a: Assessment): Assessment => (activity ? { ...a, health: { ...a.health, activity } } : a);
    const discovered: Assessment = {
      ...assessed,
      health: { ...assessed.health, cluster: { ...assessed.health.cluster, ...this.discovery } },
    };
    this.ownClusterID = (split.own.objects.clusterversions?.[0]?.spec as { clusterID?: string } | undefined)?.clusterID;
    const sample = this.sampleDue();
    if (sample) this.lastSampleAt = Date.now();
    for (const message of this.published.update(withActivity(discovered), now, sample)) this.emit(message);
    if (this.pendingTransitions.length > 0) {
      this.emit({ type: 'transitions', clusterId: this.id, transitions: this.pendingTransitions });
      this.pendingTransitions = [];
    }
    this.publishHosted(
      hosted.map((entry) => ({ ...entry, assessment: withActivity(entry.assessment) })),
      now,
      sample,
    );
  }

  /**
   * Whether this evaluation adds a point to the charts: at most one a second, however often events re-evaluate, and
   * only once a point is true. Before the cluster's clock was heard its time is our guess, and a point stamped with it
   * lies on the time axis (the embedded clusters run days behind real time, a real one by its skew), and every later
   * point would come before it. Before the always tier first settled, a point would chart the sources not read yet
   * as zeros.
   */
  private sampleDue(): boolean {
    return (
      Date.now() - this.lastSampleAt >= SAMPLE_INTERVAL_MS &&
      this.connection.clockHeard() &&
      this.firstSync.alwaysSettled()
    );
  }

  /** Assesses one hosted part of the snapshot with the same detectors. */
  private assessHosted(part: HostedPart, now: number, sources: SourceStateDto[]) {
    const id = hostedClusterId(this.id, part.namespace, part.name);
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
    return { id, part, assessment };
  }

  /** Publishes every hosted part's assessment; hosted clusters that went away stop being members. */
  private publishHosted(
    assessed: readonly { id: string; part: HostedPart; assessment: Assessment }[],
    now: number,
    sample: boolean,
  ): void {
    const seen = new Set<string>();
    for (const { id, part, assessment } of assessed) {
      seen.add(id);
      let view = this.hosted.get(id);
      if (!view) {
        view = new HostedClusterView(id, part.name, this.id, this, part.clusterID);
        this.hosted.set(id, view);
      }
      view.clusterID = part.clusterID;
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
