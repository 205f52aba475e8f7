import 'server-only';
import type { ActivityReasonDto, ClusterHealthDto, SourceStateDto } from '@/lib/api/dto';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { Detector, LogExcerpt, ResourceNeed, SourceTier } from '@/lib/health/types';
import { requiredLogs } from '@/lib/health/registry';
import {
  DEFAULT_HOLD_DOWN_MS,
  METRICS_TIER,
  activityDto,
  activityReasons,
  logTier,
  needCovers,
  nextActivity,
  tieredResources,
  type ActivityState,
} from '@/lib/health/tiers';
import type { ClusterConnection, SourceEvent, SourceHandle } from '@/server/kube/connection';
import { judgeSources, upstreamOnly, upstreamOnlyPlan } from '@/lib/health/source-applicability';
import { LogPoller } from './log-poller';
import { OptionalSources } from './optional-sources';

/** Background polling the active tier runs besides watches and logs (a metrics source: scrapes and alert polls). */
export interface TierService {
  start(): void;
  stop(): void;
}

/** Options of {@link SourceTiers}. */
export interface SourceTiersOptions {
  connection: ClusterConnection;
  detectors: readonly Detector[];
  onEvent: (event: SourceEvent) => void;
  /** Called when logs changed or the tier changed (the cluster is evaluated again). */
  onChange: () => void;
  logPollMs: number;
  optionalProbeMs?: number;
  /** Polling that runs on {@link METRICS_TIER} (started and stopped with it). */
  services?: readonly TierService[];
  /** How long a cluster stays active after its last reason (default 10 min). */
  holdDownMs?: number;
  /** False: every source on every cluster, as before tiers (measurements). Default true. */
  enabled?: boolean;
}

/** A need of a running tier: watched, or deferred (not watched until the cluster says it applies, see `start`). */
type RunningSource = { need: ResourceNeed; tier: SourceTier } & (
  { state: 'watched'; handle: SourceHandle } | { state: 'deferred'; since: number }
);
type WatchedSource = Extract<RunningSource, { state: 'watched' }>;
type DeferredSource = Extract<RunningSource, { state: 'deferred' }>;

const watched = (source: RunningSource): source is WatchedSource => source.state === 'watched';
const deferred = (source: RunningSource): source is DeferredSource => source.state === 'deferred';

/**
 * The sources of one cluster by tier: the always tier runs from start to stop; the active tier (cluster-wide pods,
 * logs, metrics, alerts) starts when the cluster turns active and stops, freeing its caches and connections, when it
 * has been idle for the hold-down. Idle sources are reported as `idle` (waiting for activity), never as pending.
 */
/** Shared by every cluster's tiers: read, never changed. */
type TierNeeds = Readonly<Record<SourceTier, readonly ResourceNeed[]>>;

const tieredByDetectors = new WeakMap<readonly Detector[], TierNeeds>();

/** The needs of each tier, one copy for every cluster watched with the same detectors (never changed after). */
function tieredNeeds(detectors: readonly Detector[]): TierNeeds {
  let tiered = tieredByDetectors.get(detectors);
  if (!tiered) {
    tiered = tieredResources(detectors);
    tieredByDetectors.set(detectors, tiered);
  }
  return tiered;
}

export class SourceTiers {
  private readonly needs: TierNeeds;
  private readonly logs: Record<SourceTier, LogPoller>;
  private readonly running: RunningSource[] = [];
  private optional: OptionalSources | undefined;
  private state: ActivityState;
  private started = false;
  private viewers = 0;
  private looked = false;
  private readonly holdDownMs: number;

  constructor(private readonly o: SourceTiersOptions) {
    const tiered = tieredNeeds(o.detectors);
    this.needs = o.enabled === false ? { always: [...tiered.always, ...tiered.active], active: [] } : tiered;
    const logs = requiredLogs(o.detectors);
    const logsOf = (tier: SourceTier) =>
      logs.filter((need) => (o.enabled === false ? 'always' : logTier(need)) === tier);
    this.logs = {
      always: new LogPoller(o.connection, logsOf('always'), o.onChange, o.logPollMs),
      active: new LogPoller(o.connection, logsOf('active'), o.onChange, o.logPollMs),
    };
    this.holdDownMs = o.holdDownMs ?? DEFAULT_HOLD_DOWN_MS;
    this.state = { tier: o.enabled === false ? 'active' : 'always', since: Date.now(), reasons: [] };
  }

  /**
   * Starts the always tier (and the active tier where tiers are off). Its needs in namespaces only clusters that are
   * not OpenShift have are deferred: watched once the cluster answered that it is not OpenShift, never on OpenShift
   * (where they are `not-applicable`: no watch, no request).
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.startTier('always');
    if (this.state.tier === 'active') this.startActive();
  }

  /** Stops every source; the last state stays readable. */
  stop(): void {
    this.started = false;
    this.optional?.stop();
    for (const source of this.running.filter(watched)) source.handle.stop();
    this.running.length = 0;
    this.logs.always.stop();
    this.logs.active.stop();
    for (const service of this.o.services ?? []) service.stop();
  }

  /** True while the active tier runs. */
  active(): boolean {
    return this.state.tier === 'active';
  }

  /** A viewer has the cluster open (its detail stream) until the returned function is called. */
  view(): () => void {
    this.viewers += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.viewers -= 1;
    };
  }

  /** A viewer looked at the cluster once (GET health): a reason at the next evaluation, held down as any other. */
  look(): void {
    this.looked = true;
  }

  /**
   * Decides the tier from the latest health of the cluster (and of the hosted clusters it serves) and starts or stops
   * the active tier. Findings and updates count only once the always tier settled (a half-synced snapshot is no
   * reason). Returns true when the tier changed.
   */
  decide(healths: readonly ClusterHealthDto[], nodes: readonly KubeObject[] = []): boolean {
    this.startUpstreamOnlyOffOpenShift();
    if (this.o.enabled === false) return false;
    const viewed = this.looked || this.viewers > 0;
    this.looked = false;
    const settled = this.settled('always');
    const reasons = new Set<ActivityReasonDto>(viewed ? ['viewed'] : []);
    if (settled) {
      for (const health of healths) for (const reason of activityReasons(health, false, nodes)) reasons.add(reason);
    }
    const next = nextActivity(this.state, [...reasons], Date.now(), this.holdDownMs);
    const changed = next.tier !== this.state.tier;
    this.state = next;
    if (!changed || !this.started) return false;
    if (next.tier === 'active') this.startActive();
    else this.stopActive();
    return true;
  }

  /** The activity as the API serves it. */
  activity(): ClusterHealthDto['activity'] {
    return this.o.enabled === false ? undefined : activityDto(this.state, this.holdDownMs);
  }

  /**
   * States of every source: watched ones as they are (judged against the cluster, see {@link judgeSources}), deferred
   * ones `not-applicable` on OpenShift and `pending` until the cluster told, the active tier's needs as `idle` while
   * it does not run.
   */
  sourceStates(): SourceStateDto[] {
    const states = judgeSources(this.watchedStates());
    const waiting = this.running.filter(deferred);
    if (waiting.length > 0) {
      const status = upstreamOnlyPlan(states) === 'not-applicable' ? 'not-applicable' : 'pending';
      for (const { need, since } of waiting)
        states.push({
          resource: need.resource,
          ...(need.namespace ? { namespace: need.namespace } : {}),
          status,
          since: new Date(since).toISOString(),
        });
    }
    if (this.active()) return states;
    const since = new Date(this.state.since).toISOString();
    for (const need of this.needs.active) {
      states.push({
        resource: need.resource,
        ...(need.namespace ? { namespace: need.namespace } : {}),
        status: 'idle',
        since,
      });
    }
    return states;
  }

  /** Statuses and counters of the running watches (the service's metrics). */
  handles(): readonly SourceHandle[] {
    return this.running.filter(watched).map(({ handle }) => handle);
  }

  /**
   * True once every watched source of `tier` synced or failed in a way only time or RBAC can fix (a deferred one
   * waits on the others: it is not part of the sync).
   */
  settled(tier?: SourceTier): boolean {
    const sources = this.running.filter(watched).filter((source) => tier === undefined || source.tier === tier);
    return (
      sources.length > 0 &&
      sources.every(({ handle }) => {
        const { status, error } = handle.state();
        return status !== 'pending' || error !== undefined;
      })
    );
  }

  /** True once every log poller that runs polled once (logs-corroborated findings had their chance). */
  logsPolled(): boolean {
    return this.logs.always.polled() && (!this.active() || this.logs.active.polled());
  }

  excerpts(): LogExcerpt[] {
    return [...this.logs.always.excerpts(), ...(this.active() ? this.logs.active.excerpts() : [])];
  }

  /**
   * Objects by resource. Where two running sources overlap (the active tier's cluster-wide pods and the always tier's
   * pods of a namespace), the wide one speaks once it synced, the narrow ones until then: no object twice.
   */
  objects(): Partial<Record<ResourceName, readonly KubeObject[]>> {
    const out: Partial<Record<ResourceName, readonly KubeObject[]>> = {};
    const sources = this.running.filter(watched);
    const strictly = (wide: WatchedSource, narrow: WatchedSource) =>
      wide !== narrow && needCovers(wide.need, narrow.need) && !needCovers(narrow.need, wide.need);
    const statuses = new Map(sources.map((source) => [source, source.handle.state().status]));
    const synced = (source: WatchedSource) => statuses.get(source) === 'synced';
    for (const source of sources) {
      if (sources.some((wide) => strictly(wide, source) && synced(wide))) continue;
      if (!synced(source) && sources.some((narrow) => strictly(source, narrow))) continue;
      const held = out[source.need.resource];
      out[source.need.resource] = held ? [...held, ...source.handle.objects()] : source.handle.objects();
    }
    return out;
  }

  private startTier(tier: SourceTier): void {
    const needs = this.needs[tier];
    const since = Date.now();
    for (const need of needs.filter((candidate) => tier === 'active' || !candidate.optional)) {
      if (tier === 'always' && upstreamOnly(need)) this.running.push({ need, tier, state: 'deferred', since });
      else this.watch(need, tier);
    }
    if (tier === 'always') {
      this.optional = new OptionalSources(
        this.o.connection,
        needs.filter((need) => need.optional),
        (need) => {
          if (this.started) this.watch(need, 'always');
        },
        this.o.optionalProbeMs,
      );
      this.optional.start();
    }
    this.logs[tier].start();
    if (tier === METRICS_TIER) for (const service of this.o.services ?? []) service.start();
  }

  /** Watches the deferred needs once the cluster's ClusterVersion source answered other than OpenShift does. */
  private startUpstreamOnlyOffOpenShift(): void {
    if (!this.started || !this.running.some(deferred)) return;
    if (upstreamOnlyPlan(this.watchedStates()) !== 'watch') return;
    const waiting = this.running.filter(deferred);
    this.running.splice(0, this.running.length, ...this.running.filter(watched));
    for (const { need, tier } of waiting) this.watch(need, tier);
  }

  /**
   * The status of every watched source as {@link sourceStates} judges it, from each source's status alone: the
   * fleet's metrics read every source of every cluster, and a state per source held the event loop for a third of a
   * second at 64,000 sources.
   */
  watchedStatuses(): SourceStateDto['status'][] {
    const briefs = this.running.filter(watched).map(({ need, handle }) => ({
      resource: need.resource,
      namespace: need.namespace,
      status: handle.status(),
    }));
    return judgeSources(briefs).map((brief) => brief.status);
  }

  private watchedStates(): SourceStateDto[] {
    return this.running.filter(watched).map(({ handle }) => handle.state());
  }

  private startActive(): void {
    this.startTier('active');
    this.o.onChange();
  }

  private stopActive(): void {
    for (let i = this.running.length - 1; i >= 0; i -= 1) {
      const source = this.running[i];
      if (source.tier !== 'active') continue;
      if (watched(source)) source.handle.stop();
      this.running.splice(i, 1);
    }
    this.logs.active.stop();
    this.logs.active.clear();
    if (METRICS_TIER === 'active') for (const service of this.o.services ?? []) service.stop();
    this.o.onChange();
  }

  private watch(need: ResourceNeed, tier: SourceTier): void {
    const { optional: _optional, ...watched } = need;
    void _optional;
    const handle = this.o.connection.watch(watched, this.o.onEvent);
    this.running.push({ need, tier, state: 'watched', handle });
    handle.start();
  }
}
