/**
 * Tiers of sources: what is read on every cluster (`always`: cluster-scoped singletons and small lists) and what only
 * while a cluster is active (`active`: cluster-wide pods, container logs, metric scrapes, alert polls), so that the
 * cost of a fleet grows with the clusters in trouble, not with its size. A cluster is active while it updates, has a
 * finding of warning or worse, or is looked at, and for a hold-down after the last of these.
 */
import type { ActivityDto, ActivityReasonDto, ClusterHealthDto } from '@/lib/api/dto';
import type { ResourceName } from '@/lib/k8s/resources';
import type { KubeObject } from '@/lib/k8s/types';
import type { Detector, LogNeed, ResourceNeed, SourceTier } from '@/lib/health/types';
import { dedupeNeeds } from '@/lib/health/registry';

/**
 * Resources whose cluster-wide list grows with the workload (tens of thousands of pods on a large cluster): watched
 * cluster-wide only on the active tier. A need narrowed to a namespace or a name stays on the always tier.
 */
export const ACTIVE_WHEN_CLUSTER_WIDE: ReadonlySet<ResourceName> = new Set<ResourceName>(['pods']);

/** Container logs are fetched by polling every pod's log: corroboration the active tier adds. */
export const LOGS_TIER: SourceTier = 'active';

/** Metric scrapes (pod-setup latency) and alert polls run on the active tier. */
export const METRICS_TIER: SourceTier = 'active';

/** How long a cluster stays active after its last reason (so sources do not flap), by default. */
export const DEFAULT_HOLD_DOWN_MS = 10 * 60_000;

/** The tier of a resource need: its own `tier`, else active for a cluster-wide list of a workload-sized resource. */
export function needTier(need: ResourceNeed): SourceTier {
  if (need.tier) return need.tier;
  const clusterWide = need.namespace === undefined && need.name === undefined;
  return clusterWide && ACTIVE_WHEN_CLUSTER_WIDE.has(need.resource) ? 'active' : 'always';
}

/** The tier of a log need: its own `tier`, else {@link LOGS_TIER}. */
export function logTier(need: LogNeed): SourceTier {
  return need.tier ?? LOGS_TIER;
}

/**
 * The detectors' resource needs split by tier, each tier deduplicated on its own (an always-tier namespaced need is
 * kept even where an active-tier cluster-wide need of the same resource covers it: it must be watched while idle).
 */
export function tieredResources(detectors: readonly Detector[]): Record<SourceTier, ResourceNeed[]> {
  const all = detectors.flatMap((detector) => detector.needs);
  const strip = (need: ResourceNeed): ResourceNeed => {
    const { tier: _tier, ...rest } = need;
    void _tier;
    return rest;
  };
  return {
    always: dedupeNeeds(all.filter((need) => needTier(need) === 'always').map(strip)),
    active: dedupeNeeds(all.filter((need) => needTier(need) === 'active').map(strip)),
  };
}

/** True when `wide` watches every object `narrow` does (same resource, no narrower namespace or name). */
export function needCovers(wide: ResourceNeed, narrow: ResourceNeed): boolean {
  return (
    wide.resource === narrow.resource &&
    (wide.namespace === undefined || wide.namespace === narrow.namespace) &&
    (wide.name === undefined || wide.name === narrow.name)
  );
}

/**
 * Why a cluster should be active now, from its latest health, its Nodes and whether a viewer looks at it: an update in
 * progress (a pool still rolling out counts, see update-state), a cordoned node, a finding of warning or worse, a
 * viewer.
 */
export function activityReasons(
  health: ClusterHealthDto,
  viewed: boolean,
  nodes: readonly KubeObject[] = [],
): ActivityReasonDto[] {
  const reasons: ActivityReasonDto[] = [];
  const phase = health.updateState?.phase;
  if (phase !== undefined && phase !== 'idle' && phase !== 'unknown') reasons.push('updating');
  // A drain outside an update (oc adm drain) recreates pods too: failure mode D needs the metrics then.
  if (nodes.some((node) => (node.spec as { unschedulable?: boolean } | undefined)?.unschedulable === true))
    reasons.push('draining');
  if (health.findings.some((finding) => finding.severity === 'critical' || finding.severity === 'warning'))
    reasons.push('finding');
  if (viewed) reasons.push('viewed');
  return reasons;
}

/** The activity of one cluster between evaluations: its tier, since when, and when it last had a reason. */
export interface ActivityState {
  tier: SourceTier;
  /** Epoch ms the current tier began. */
  since: number;
  reasons: ActivityReasonDto[];
  /** Epoch ms of the last evaluation that found a reason; absent: never. */
  lastReasonAt?: number;
}

/**
 * The next activity: active at once on any reason; idle again only once no reason was seen for `holdDownMs`.
 * `now` is epoch ms.
 */
export function nextActivity(
  previous: ActivityState,
  reasons: readonly ActivityReasonDto[],
  now: number,
  holdDownMs: number = DEFAULT_HOLD_DOWN_MS,
): ActivityState {
  const lastReasonAt = reasons.length > 0 ? now : previous.lastReasonAt;
  const held = lastReasonAt !== undefined && now - lastReasonAt < holdDownMs;
  const tier: SourceTier = reasons.length > 0 || (previous.tier === 'active' && held) ? 'active' : 'always';
  return {
    tier,
    since: tier === previous.tier ? previous.since : now,
    reasons: [...reasons],
    ...(lastReasonAt !== undefined ? { lastReasonAt } : {}),
  };
}

/** What an idle cluster does not read, in words for the row and the page. */
export const WAITING_WHILE_IDLE: readonly string[] = [
  'cluster-wide pods (node drains, FeatureGate consumers)',
  'container logs (cluster-version operator, operator-controller)',
  'pod-setup latency metrics and alerts',
];

/** The activity as the API serves it; `holdUntil` while a cluster with no reason left is held active. */
export function activityDto(state: ActivityState, holdDownMs: number = DEFAULT_HOLD_DOWN_MS): ActivityDto {
  const holding = state.tier === 'active' && state.reasons.length === 0 && state.lastReasonAt !== undefined;
  return {
    tier: state.tier,
    since: new Date(state.since).toISOString(),
    reasons: state.reasons,
    ...(holding ? { holdUntil: new Date(state.lastReasonAt! + holdDownMs).toISOString() } : {}),
    waiting: state.tier === 'active' ? [] : [...WAITING_WHILE_IDLE],
  };
}

/**
 * True when nothing a source should read is behind: synced, an idle cluster's active-tier source waiting for
 * activity (not read on purpose), or a source that does not apply to the cluster (upstream-only, on OpenShift).
 */
export function sourceUpToDate(source: { status: string }): boolean {
  return source.status === 'synced' || source.status === 'idle' || source.status === 'not-applicable';
}

/**
 * True for a fleet row that has sources and none of them is behind (see {@link sourceUpToDate}): the cluster's first
 * sync is done.
 */
export function rowSynced(row: { sources: { total: number; behind: readonly unknown[] } }): boolean {
  return row.sources.total > 0 && row.sources.behind.length === 0;
}
