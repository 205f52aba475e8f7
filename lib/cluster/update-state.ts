/**
 * One account of where an update stands — phase, per-part completion, an honest estimate — derived from the update
 * progress (`oc adm upgrade status` semantics), the ClusterVersion history and the status-write-rejection finding.
 * The header, the fleet row, Before-you-update, the rollback guide and incidents all read this, so they agree.
 */
import type {
  ClusterHealthDto,
  FindingDto,
  SourceStateDto,
  UpdatePhaseDto,
  UpdateProgressDto,
  UpdateStateDto,
} from '@/lib/api/dto';
import { sourceUpToDate } from '@/lib/health/tiers';
import { isOlderVersion } from '@/lib/k8s/version';
import { poolNodeCounts } from '@/lib/health/update-progress/util';

type HistoryEntry = ClusterHealthDto['cluster']['history'][number];

/** Why the update state can be unknown. */
export type UnknownCause =
  | { kind: 'forbidden' }
  | { kind: 'withheld'; missing: readonly string[] }
  | { kind: 'missing'; what: string; where: DataOrigin }
  /** Not read from the cluster yet (its first sync), or never read since (`status` says why). */
  | { kind: 'unread'; what: string; status?: string };

/** Where the assessed objects came from: a live cluster or a must-gather archive. */
export type DataOrigin = 'cluster' | 'must-gather';

/** What {@link updateStateOf} reads. */
export interface UpdateStateInput {
  progress: UpdateProgressDto | null;
  /** ClusterVersion `status.history`, newest first. */
  history: readonly HistoryEntry[];
  /** The requested version: `spec.desiredUpdate.version`, else `status.desired.version`. */
  requestedVersion: string | null;
  /** The cluster's findings; the status-write-rejection ones tell that ClusterVersion status is frozen. */
  findings: readonly FindingDto[];
  /** Set when the data is withheld. */
  unknown?: UnknownCause;
  /** Where the data came from, to say where something is missing; default `cluster`. */
  origin?: DataOrigin;
  /** The object whose history tells the update state: a HostedCluster for a hosted control plane. */
  versionObject?: 'ClusterVersion' | 'HostedCluster';
  /** ClusterOperator `operator` versions, as observed. */
  operatorVersions?: readonly { version: string; operators: number }[];
}

const FROZEN_SUFFIXES = [':rejected', ':stale', ':enum'];
const LAST_WRITE_LABEL = /^Last CVO status write/;

/**
 * The status-write-rejection detector's observation that the cluster-version operator cannot write ClusterVersion
 * status (capability values outside the CRD enum, 422s in its log, or status stale behind spec); `null` otherwise.
 * `since` is its last observed status write, when known.
 */
export function statusFreezeOf(findings: readonly FindingDto[]): UpdateStateDto['frozen'] {
  // What is observed (rejected writes, stale status) speaks before what the CRD's enum predicts.
  const finding = FROZEN_SUFFIXES.map((suffix) =>
    findings.find((f) => f.detector === 'status-write-rejection' && f.id.endsWith(suffix)),
  ).find((f) => f !== undefined);
  if (!finding) return null;
  const lastWrite = finding.evidence.find((e) => LAST_WRITE_LABEL.test(e.label) && typeof e.value === 'string');
  const since = finding.since ?? (lastWrite && typeof lastWrite.value === 'string' ? lastWrite.value : null);
  return { since, reason: finding.title };
}

/**
 * Why `what` is absent when its watched `resource` has never been read: no source for it yet (before the first
 * sync), or one that has not synced once (pending, refused, unreachable). Undefined once it was read: then an absent
 * object is absent from the cluster.
 */
export function unreadCause(
  sources: readonly Pick<SourceStateDto, 'resource' | 'status' | 'lastSyncAt'>[],
  resource: string,
  what: string,
): UnknownCause | undefined {
  const source = sources.find((entry) => entry.resource === resource && entry.lastSyncAt === undefined);
  if (sources.some((entry) => entry.resource === resource) && (!source || sourceUpToDate(source))) return undefined;
  return { kind: 'unread', what, ...(source && source.status !== 'pending' ? { status: source.status } : {}) };
}

function unknownReason(cause: UnknownCause): string {
  if (cause.kind === 'forbidden') return 'you may not read clusterversions';
  if (cause.kind === 'withheld') return `you may not read ${cause.missing.join(', ')}`;
  if (cause.kind === 'unread') return `${cause.what} not read yet${cause.status ? ` (${cause.status})` : ''}`;
  return cause.where === 'must-gather' ? `${cause.what} not in the must-gather` : `no ${cause.what} on the cluster`;
}

/** The newest completed version before the current attempt (the attempt's own entry is skipped). */
function previousCompleted(history: readonly HistoryEntry[], target: string | null): string | null {
  const rest = history[0] && history[0].version === target ? history.slice(1) : history;
  return rest.find((entry) => entry.state === 'Completed' && entry.version)?.version ?? null;
}

function poolsOf(progress: UpdateProgressDto): UpdateStateDto['pools'] {
  return progress.workerPools.map((pool) => ({ name: pool.name, ...poolNodeCounts(pool) }));
}

/** Nodes per observed version, most first. */
function nodeVersionsOf(progress: UpdateProgressDto): { version: string; nodes: number }[] {
  const counts = new Map<string, number>();
  const nodes = [...(progress.controlPlane.nodes ?? []), ...progress.workerPools.flatMap((pool) => pool.nodes ?? [])];
  for (const node of nodes) {
    const version = node.version || 'unknown';
    counts.set(version, (counts.get(version) ?? 0) + 1);
  }
  return [...counts].map(([version, nodes]) => ({ version, nodes })).sort((a, b) => b.nodes - a.nodes);
}

function isStalled(progress: UpdateProgressDto): boolean {
  return (
    progress.controlPlane.assessment === 'Stalled' ||
    progress.workerPools.some((pool) => pool.assessment === 'Degraded') ||
    progress.insights.some((insight) => insight.level === 'Error' && insight.impact === 'Update Stalled')
  );
}

const NO_WORKER_ESTIMATE = 'unknown: worker pools have no estimate (nodes drain and reboot one by one)';

function estimateOf(phase: UpdatePhaseDto, progress: UpdateProgressDto | null): UpdateStateDto['estimate'] {
  const none = (note: string) => ({ remainingSeconds: null, note });
  switch (phase) {
    case 'idle':
      return none('');
    case 'unknown':
      return none('unknown: the update state is not known');
    case 'status-frozen':
      return none('unknown: ClusterVersion status is frozen');
    case 'stalled':
      return none('unknown: the update is stalled');
    case 'updating-workers':
      return none(NO_WORKER_ESTIMATE);
    default:
      break;
  }
  const cp = progress?.controlPlane;
  if (!cp || cp.assessment === 'Completed') return none(NO_WORKER_ESTIMATE);
  if (cp.multiArchMigration) return none('unknown: no estimate for a multi-architecture migration');
  if (cp.assessment !== 'Progressing') return none('unknown: the update runs past its estimate');
  const remaining = cp.estimatedRemainingSeconds;
  return remaining !== null && remaining > 0
    ? { remainingSeconds: remaining, note: '' }
    : none('unknown: the update runs past its estimate');
}

function labelOf(phase: UpdatePhaseDto, state: Omit<UpdateStateDto, 'label' | 'estimate' | 'phase'>): string {
  const to = state.targetVersion ? ` to ${state.targetVersion}` : '';
  switch (phase) {
    case 'unknown':
      return `Update state unknown: ${state.unknownReason ?? 'no data'}`;
    case 'status-frozen':
      return state.rollingBack ? `Rolling back${to} · ClusterVersion status frozen` : 'ClusterVersion status frozen';
    case 'stalled':
      return `${state.rollingBack ? 'Rollback' : 'Update'}${to} stalled`;
    case 'rolling-back':
      return `Rolling back${to}`;
    case 'updating-control-plane':
      return `Updating control plane${to}`;
    case 'updating-workers':
      return `Updating workers${to}`;
    case 'idle':
      return state.installed && state.targetVersion ? `Installed ${state.targetVersion}` : 'Idle';
  }
}

function empty(unknown: string | null): Omit<UpdateStateDto, 'label' | 'estimate' | 'phase'> {
  return {
    unknownReason: unknown,
    targetVersion: null,
    fromVersion: null,
    rollingBack: false,
    installed: false,
    controlPlane: null,
    pools: [],
    frozen: null,
  };
}

/**
 * Derives the update state. Phase, first that holds: `unknown` (data withheld or missing), `status-frozen`
 * (the CVO cannot write ClusterVersion status), `stalled`, `rolling-back` (target older than the previous completed
 * version), `updating-control-plane`, `updating-workers` (a pool rollout counts even after ClusterVersion says
 * Completed), `idle`. The estimate is the control plane's only while it is within oc's estimate; otherwise none.
 */
export function updateStateOf(input: UpdateStateInput): UpdateStateDto {
  const { progress, history } = input;
  const frozen = statusFreezeOf(input.findings);
  const observed = input.operatorVersions ? { operatorVersions: [...input.operatorVersions] } : {};
  const where = input.origin ?? 'cluster';
  const object = input.versionObject ?? 'ClusterVersion';
  // Without a ClusterVersion the progress is `Unknown`; a HostedCluster's is `Unknown` without history.
  const objectMissing = !progress || (progress.controlPlane.assessment === 'Unknown' && object === 'ClusterVersion');
  const noHistory = history.length === 0 && !progress?.controlPlane.targetVersion;
  const missing: UnknownCause | undefined = objectMissing
    ? { kind: 'missing', what: object, where }
    : noHistory
      ? { kind: 'missing', what: `${object} history`, where }
      : undefined;
  const cause = input.unknown ?? missing;
  if (cause || !progress) {
    const reason = unknownReason(cause ?? { kind: 'missing', what: object, where });
    const base = { ...empty(reason), frozen, ...observed };
    return { ...base, phase: 'unknown', label: labelOf('unknown', base), estimate: estimateOf('unknown', null) };
  }
  const cp = progress.controlPlane;
  // A frozen status keeps the old target: the request in spec is what the cluster is moving to.
  const targetVersion = (frozen ? input.requestedVersion : null) ?? cp.targetVersion ?? input.requestedVersion;
  const fromVersion = previousCompleted(history, targetVersion);
  const pools = poolsOf(progress);
  const cpDone = cp.assessment === 'Completed';
  const workersUpdating = pools.some((pool) => pool.total > 0 && pool.updated + pool.unknown < pool.total);
  const moving = !cpDone || workersUpdating;
  const rollingBack = (moving || !!frozen) && isOlderVersion(targetVersion, fromVersion);
  const installed = history.length === 1 && history[0].state === 'Completed';
  const phase: UpdatePhaseDto = frozen
    ? 'status-frozen'
    : moving && isStalled(progress)
      ? 'stalled'
      : moving && rollingBack
        ? 'rolling-back'
        : !cpDone
          ? 'updating-control-plane'
          : workersUpdating
            ? 'updating-workers'
            : 'idle';
  const state = {
    unknownReason: null,
    targetVersion,
    fromVersion,
    rollingBack,
    installed,
    controlPlane: { percent: cp.completionPercent, done: cpDone },
    pools,
    frozen,
    ...observed,
    ...(frozen ? { nodeVersions: nodeVersionsOf(progress) } : {}),
  };
  return { ...state, phase, label: labelOf(phase, state), estimate: estimateOf(phase, progress) };
}

/** Whether an update (or rollback) is under way or its state cannot be told: no update should be requested then. */
export function updateBusy(state: Pick<UpdateStateDto, 'phase'>): boolean {
  return state.phase !== 'idle';
}

/**
 * The update state of a served health: its own when present, else derived from what it carries (health stored
 * before the state existed, or a view whose ClusterVersion access is withheld).
 */
export function updateStateOfHealth(
  health: Pick<ClusterHealthDto, 'updateState' | 'updateProgress' | 'cluster' | 'findings' | 'access'>,
): UpdateStateDto {
  if (health.access && !health.access.clusterVersion) {
    return updateStateOf({
      progress: null,
      history: [],
      requestedVersion: null,
      findings: [],
      unknown: { kind: 'forbidden' },
    });
  }
  const withheld = health.access?.hiddenViews?.updateProgress;
  if (withheld) {
    return updateStateOf({
      progress: null,
      history: [],
      requestedVersion: null,
      findings: [],
      unknown: { kind: 'withheld', missing: withheld },
    });
  }
  if (health.updateState) return health.updateState;
  return updateStateOf({
    progress: health.updateProgress,
    history: health.cluster.history,
    requestedVersion: health.cluster.desiredVersion,
    findings: health.findings,
  });
}

const SUMMARY_ID = 'update-progress/summary';

/**
 * The findings with the update summary marked stale while ClusterVersion status is frozen: it reads that status, so
 * a "Completed" there must not pass for a fact beside the finding that says the status cannot be written.
 */
export function withStaleSummary(findings: FindingDto[], state: Pick<UpdateStateDto, 'frozen'>): FindingDto[] {
  if (!state.frozen) return findings;
  return findings.map((finding) =>
    finding.id !== SUMMARY_ID
      ? finding
      : {
          ...finding,
          severity: finding.severity === 'ok' ? 'info' : finding.severity,
          title: `Stale (ClusterVersion status frozen): ${finding.title}`,
          summary: `ClusterVersion status cannot be written, so what it reports is stale. ${finding.summary}`,
        },
  );
}
