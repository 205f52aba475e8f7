/**
 * What the service tells its monitoring stack about each cluster: which kinds of finding are active, where its update
 * stands and how long a finished update took. Pure: the server reads health and the cluster's clock, and exports
 * these as Prometheus series (`server/observability/health-signals.ts`).
 *
 * Cardinality is bounded by design: labels carry the cluster id, the detector, its failure mode and the severity,
 * never a subject, pod or node name, so a cluster has at most (detectors × 3 severities) finding series, one phase
 * series and two completion series, however many objects its findings name.
 */
import type { ClusterHealthDto, FindingDto, SeverityDto, UpdatePhaseDto, UpdateStateDto } from '@/lib/api/dto';
import { failureModeOf } from '@/lib/charts/detectors';
import { updateStateOfHealth } from '@/lib/cluster/update-state';
import { minorOf } from '@/lib/k8s/version';

/** The severities a finding series is exported for: `ok` states a check that passed, not something active. */
export type ActiveSeverity = Exclude<SeverityDto, 'ok'>;

/** One kind of active finding on a cluster: what `update_health_finding` labels. */
export interface FindingKind {
  detector: string;
  /** The failure mode (A–E) the detector catches, `none` for context detectors (update progress, hosted, drain). */
  failureMode: string;
  severity: ActiveSeverity;
}

/** The distinct kinds of the active (not `ok`) findings, ordered by detector then severity (worst first). */
export function findingKindsOf(findings: readonly Pick<FindingDto, 'detector' | 'severity'>[]): FindingKind[] {
  const kinds = new Map<string, FindingKind>();
  for (const { detector, severity } of findings) {
    if (severity === 'ok') continue;
    const key = `${detector}\u0000${severity}`;
    if (!kinds.has(key)) kinds.set(key, { detector, failureMode: failureModeOf(detector) ?? 'none', severity });
  }
  const rank: Record<ActiveSeverity, number> = { critical: 0, warning: 1, info: 2 };
  return [...kinds.values()].sort(
    (a, b) => a.detector.localeCompare(b.detector) || rank[a.severity] - rank[b.severity],
  );
}

/** Phases in which an update (or rollback) is moving or stuck: anything but idle and unknown. */
export const MOVING_PHASES: readonly UpdatePhaseDto[] = [
  'status-frozen',
  'stalled',
  'rolling-back',
  'updating-control-plane',
  'updating-workers',
];

/** Where a cluster's update stands, as series: its phase and, where known, each part's completion (0–1). */
export interface UpdateSignals {
  phase: UpdatePhaseDto;
  completion: { part: 'control_plane' | 'workers'; ratio: number }[];
}

/**
 * The update signals of a state: the control plane's completion (ClusterOperators at the target) and the workers'
 * (nodes at the target over all pools' nodes). A part whose completion is not known has no series, never a 0.
 */
export function updateSignalsOf(state: UpdateStateDto): UpdateSignals {
  const completion: UpdateSignals['completion'] = [];
  if (state.phase === 'unknown') return { phase: state.phase, completion };
  const percent = state.controlPlane?.percent;
  if (typeof percent === 'number') completion.push({ part: 'control_plane', ratio: percent / 100 });
  const total = state.pools.reduce((sum, pool) => sum + pool.total, 0);
  if (total > 0) {
    completion.push({ part: 'workers', ratio: state.pools.reduce((sum, pool) => sum + pool.updated, 0) / total });
  }
  return { phase: state.phase, completion };
}

/** What is remembered of a cluster's update between two looks at it. */
export interface UpdateWatch {
  /** An update (or rollback) was moving at the last look. */
  moving: boolean;
  fromVersion?: string;
  targetVersion?: string;
  /** When the moving update started (epoch ms, cluster clock). */
  startedAt?: number;
}

/** A finished update: its minor versions and how long it took from start until every part was at the target. */
export interface FinishedUpdate {
  fromMinor: string;
  toMinor: string;
  seconds: number;
}

/** When the history entry of `target` started or completed (epoch ms), if the newest entry is that attempt. */
function timeOf(
  history: ClusterHealthDto['cluster']['history'],
  target: string | null | undefined,
  field: 'startedTime' | 'completionTime',
): number | undefined {
  const entry = history[0];
  const value = entry && target && entry.version === target ? entry[field] : null;
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/**
 * Follows one cluster's update across looks at its health (`now`: the cluster's clock, epoch ms). An update finishes
 * when the phase goes from moving to `idle` — the control plane done and every pool rolled out, the same account the
 * header gives — and is then reported once, timed from its ClusterVersion history entry's start (or from the first
 * look that saw it moving) until `now`, or the entry's completion if that is later. An `unknown` look changes
 * nothing; an update already finished before the first look is never reported, so a restart does not count old
 * updates again.
 */
export function followUpdate(
  previous: UpdateWatch | undefined,
  health: Pick<ClusterHealthDto, 'updateState' | 'updateProgress' | 'cluster' | 'findings' | 'access'>,
  now: number,
): { watch: UpdateWatch; finished?: FinishedUpdate } {
  const state = updateStateOfHealth(health);
  if (state.phase === 'unknown') return { watch: previous ?? { moving: false } };
  if (MOVING_PHASES.includes(state.phase)) {
    const target = state.targetVersion ?? undefined;
    const same = previous?.moving && previous.targetVersion === target;
    return {
      watch: {
        moving: true,
        targetVersion: target,
        fromVersion: state.fromVersion ?? (same ? previous.fromVersion : undefined),
        startedAt:
          timeOf(health.cluster.history, target, 'startedTime') ?? (same ? previous.startedAt : undefined) ?? now,
      },
    };
  }
  const watch: UpdateWatch = { moving: false };
  if (!previous?.moving || previous.startedAt === undefined) return { watch };
  const fromMinor = previous.fromVersion ? minorOf(previous.fromVersion) : undefined;
  const toMinor = minorOf(previous.targetVersion ?? state.targetVersion ?? '');
  if (!fromMinor || !toMinor) return { watch };
  // The control plane's completion bounds the end from below, should `now` lag behind the cluster's own clock.
  const end = Math.max(now, timeOf(health.cluster.history, previous.targetVersion, 'completionTime') ?? now);
  return { watch, finished: { fromMinor, toMinor, seconds: Math.max(0, (end - previous.startedAt) / 1000) } };
}
