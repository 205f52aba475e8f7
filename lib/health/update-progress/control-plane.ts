/**
 * Control-plane assessment of an update, following `oc adm upgrade status` (openshift/oc
 * `pkg/cli/admin/upgrade/status/controlplane.go`): operator counts and health, versions from the ClusterVersion
 * history, duration and the completion estimate, and the insights about operators and the ClusterVersion.
 */
import type { Condition, KubeObject } from '@/lib/k8s/types';
import { conditionOf, isFalse, isTrue, transitionTimeMs } from '@/lib/k8s/conditions';
import { historyOf, type ReleaseHistoryEntry } from '@/lib/k8s/cluster-version';
import type { ControlPlaneProgress, InsightCondition, UpdatingOperator } from '@/lib/health/update-progress/types';
import { LEVEL, type RawInsight } from '@/lib/health/update-progress/insights';
import {
  MINUTE_MS,
  SECOND_MS,
  formatShortDuration,
  formatTime,
  parseTime,
  roundDuration,
  roundPercent,
  specOf,
  statusOf,
  truncateDuration,
} from '@/lib/health/update-progress/util';

/** ClusterOperator unavailable for longer than this → warning; longer than the error threshold → error. */
export const UNAVAILABLE_WARNING_MS = 5 * MINUTE_MS;
/** See {@link UNAVAILABLE_WARNING_MS}. */
export const UNAVAILABLE_ERROR_MS = 20 * MINUTE_MS;
/** ClusterOperator degraded for longer than this → warning; longer than the error threshold → error. */
export const DEGRADED_WARNING_MS = 5 * MINUTE_MS;
/** See {@link DEGRADED_WARNING_MS}. */
export const DEGRADED_ERROR_MS = 40 * MINUTE_MS;

const RUNBOOKS = 'https://github.com/openshift/runbooks/blob/master/alerts/cluster-monitoring-operator';
const HISTORY_DOC =
  'https://docs.openshift.com/container-platform/latest/updating/troubleshooting_updates/gathering-data-cluster-update.html#gathering-clusterversion-history-cli_troubleshooting_updates';

/**
 * Whether the newest history entry is a migration to the multi-architecture payload: the same version as the
 * previous entry from a different release image. Versions alone cannot tell such an update apart from no update.
 */
export function isMultiArchMigration(history: ReleaseHistoryEntry[]): boolean {
  return history.length > 1 && history[0].version === history[1].version && history[0].image !== history[1].image;
}

/** Image of the `machine-config-operator` container of the machine-config-operator Deployment, when known. */
export function machineConfigOperatorImage(deployment: KubeObject | undefined): string | undefined {
  const template = specOf(deployment).template as
    { spec?: { containers?: { name?: string; image?: string }[] } } | undefined;
  const containers = Array.isArray(template?.spec?.containers) ? template.spec.containers : [];
  return containers.find((container) => container.name === 'machine-config-operator')?.image || undefined;
}

/** Control-plane fields computed here; nodes are added by the caller. */
export type ControlPlaneCore = Omit<ControlPlaneProgress, 'nodes' | 'nodesCompletionPercent'>;

function conditionEvidence(condition: Condition): InsightCondition {
  const out: InsightCondition = { type: condition.type, status: condition.status };
  if (condition.reason) out.reason = condition.reason;
  if (condition.message) out.message = condition.message;
  if (condition.lastTransitionTime) out.lastTransitionTime = condition.lastTransitionTime;
  return out;
}

function operatorInsights(
  name: string,
  available: Condition | undefined,
  degraded: Condition | undefined,
  now: number,
): RawInsight[] {
  const subject = { group: 'config.openshift.io', kind: 'ClusterOperator' as const, name };
  const out: RawInsight[] = [];
  const unavailableSince = transitionTimeMs(available) ?? 0;
  if (available && isFalse(available) && now > unavailableSince + UNAVAILABLE_WARNING_MS) {
    out.push({
      key: 'co-unavailable',
      startedAt: transitionTimeMs(available),
      subject,
      scope: 'ControlPlane',
      level: now > unavailableSince + UNAVAILABLE_ERROR_MS ? LEVEL.error : LEVEL.warning,
      impact: 'API Availability',
      summary: `Cluster Operator ${name} is unavailable (${available.reason ?? ''})`,
      description: available.message || '<no message>',
      reference: `${RUNBOOKS}/ClusterOperatorDown.md`,
      condition: conditionEvidence(available),
    });
  }
  const degradedSince = transitionTimeMs(degraded) ?? 0;
  if (degraded && isTrue(degraded) && now > degradedSince + DEGRADED_WARNING_MS) {
    out.push({
      key: 'co-degraded',
      startedAt: transitionTimeMs(degraded),
      subject,
      scope: 'ControlPlane',
      level: now > degradedSince + DEGRADED_ERROR_MS ? LEVEL.error : LEVEL.warning,
      impact: 'API Availability',
      summary: `Cluster Operator ${name} is degraded (${degraded.reason ?? ''})`,
      description: degraded.message || '<no message>',
      reference: `${RUNBOOKS}/ClusterOperatorDegraded.md`,
      condition: conditionEvidence(degraded),
    });
  }
  return out;
}

function clusterVersionInsights(cv: KubeObject, now: number): RawInsight[] {
  const subject = { group: 'config.openshift.io', kind: 'ClusterVersion' as const, name: cv.metadata.name };
  const failing = conditionOf(cv, 'Failing');
  if (!failing) {
    return [
      {
        key: 'cv-no-failing',
        startedAt: now,
        subject,
        scope: 'ControlPlane',
        level: LEVEL.warning,
        impact: 'Update Stalled',
        summary: `Cluster Version ${cv.metadata.name} has no Failing condition`,
        description:
          "Current status of Cluster Version reconciliation is unclear.  See 'oc -n openshift-cluster-version logs -l k8s-app=cluster-version-operator --tail -1' to debug.",
        reference: `${RUNBOOKS}/ClusterOperatorDegraded.md`,
      },
    ];
  }
  if (isFalse(failing)) return [];
  return [
    {
      key: 'cv-failing',
      startedAt: transitionTimeMs(failing),
      subject,
      scope: 'ControlPlane',
      level: LEVEL.warning,
      impact: 'Update Stalled',
      summary: `Cluster Version ${cv.metadata.name} is failing to proceed with the update (${failing.reason ?? ''})`,
      description: failing.message ?? '',
      reference: `${RUNBOOKS}/ClusterOperatorDegraded.md`,
      condition: conditionEvidence(failing),
    },
  ];
}

/** Whether a ClusterOperator belongs to the release payload (carries an include/exclude release annotation). */
export function isPlatformOperator(co: KubeObject): boolean {
  return Object.keys(co.metadata.annotations ?? {}).some(
    (key) => key.startsWith('exclude.release.openshift.io/') || key.startsWith('include.release.openshift.io/'),
  );
}

function versionEntry(co: KubeObject, name: string): string | undefined {
  const versions = statusOf(co).versions;
  if (!Array.isArray(versions)) return undefined;
  const entry = (versions as { name?: string; version?: string }[]).find((v) => v.name === name);
  return entry?.version;
}

/** The `operator` entry of `status.versions`. */
export function operatorVersion(co: KubeObject): string | undefined {
  return versionEntry(co, 'operator');
}

/**
 * Whether a ClusterOperator is at the target: its `operator` version is the target version and, for
 * machine-config, its `operator-image` is the image the MCO Deployment runs (a multi-arch migration keeps the
 * version and changes only images).
 */
function isOperatorUpdated(co: KubeObject, targetVersion: string | undefined, mcoImage: string | undefined): boolean {
  if (targetVersion === undefined) return false;
  // oc reads the Deployment on every run; without it (not watched, not readable) the image cannot be compared, and
  // counting MCO as still updating would hold every such control plane at "Progressing" forever.
  if (co.metadata.name === 'machine-config' && mcoImage !== undefined) {
    const image = versionEntry(co, 'operator-image');
    if (image !== undefined && image !== mcoImage) return false;
  }
  return operatorVersion(co) === targetVersion;
}

/** Duration of the previous completed update (history entries between current and install), else one hour. */
function baselineMs(history: ReleaseHistoryEntry[]): number {
  if (history.length < 3) return 60 * MINUTE_MS;
  for (const item of history.slice(1, -1)) {
    const started = parseTime(item.startedTime);
    const completed = parseTime(item.completionTime);
    if (item.state === 'Completed' && started !== undefined && completed !== undefined) return completed - started;
  }
  return 60 * MINUTE_MS;
}

/** Share of the update's wall time typically elapsed at a given operator completion (oc's fitted curve). */
function timewiseComplete(x: number): number {
  if (x < 0.25) return -0.03078788 + 2.62886 * x - 3.823954 * x ** 2;
  if (x < 0.9) return 0.1851215 + 1.64994 * x - 4.676898 * x ** 2 + 5.451824 * x ** 3 - 2.125286 * x ** 4;
  return 25053.32 - 107394.3 * x + 172527.2 * x ** 2 - 123107 * x ** 3 + 32921.81 * x ** 4;
}

function estimateRemainingMs(
  baseline: number,
  toLastProgress: number,
  updatingFor: number,
  completion: number,
): number {
  if (completion >= 1) return 0;
  const timewise = timewiseComplete(completion);
  const totalSeconds =
    completion > 0 && timewise > 0 && toLastProgress > 5 * MINUTE_MS
      ? toLastProgress / SECOND_MS / timewise
      : baseline / SECOND_MS;
  const remainingSeconds = totalSeconds - updatingFor / SECOND_MS;
  // oc overestimates by 20% (and shrinks an overrun by the same factor), truncating to whole seconds.
  const factor = remainingSeconds < 0 ? 1 / 1.2 : 1.2;
  const estimate = Math.trunc(remainingSeconds * factor) * SECOND_MS;
  return estimate > 10 * MINUTE_MS ? roundDuration(estimate, MINUTE_MS) : roundDuration(estimate, SECOND_MS);
}

function estimateLabel(remaining: number, estimatedDuration: number, multiArchMigration: boolean): string {
  if (multiArchMigration) return 'N/A for Multi-Architecture Migration';
  if (remaining < -10 * MINUTE_MS)
    return `N/A; estimate duration was ${formatShortDuration(estimatedDuration / SECOND_MS)}`;
  if (remaining < 10 * MINUTE_MS) return '<10m';
  return formatShortDuration(remaining / SECOND_MS);
}

function versionInsights(history: ReleaseHistoryEntry[], completed: boolean, cv: KubeObject): RawInsight[] {
  if (completed || history.length < 2 || history[1].state !== 'Partial') return [];
  const lastComplete = history.slice(2).find((item) => item.state === 'Completed')?.version ?? 'unknown';
  const target = history[0].version ?? 'unknown';
  const previous = history[1].version ?? 'unknown';
  return [
    {
      key: 'previous-partial',
      startedAt: parseTime(history[0].startedTime),
      scope: 'ControlPlane',
      level: LEVEL.warning,
      impact: 'None',
      subject: { group: 'config.openshift.io', kind: 'ClusterVersion', name: cv.metadata.name },
      summary: `Previous update to ${previous} never completed, last complete update was ${lastComplete}`,
      description: `Current update to ${target} was initiated while the previous update to version ${previous} was still in progress`,
      reference: HISTORY_DOC,
    },
  ];
}

/**
 * Assesses the control plane from the ClusterVersion and ClusterOperators at time `now` (epoch ms). `mcoImage` is
 * the image the machine-config-operator Deployment runs ({@link machineConfigOperatorImage}), when known.
 */
export function assessControlPlane(
  cv: KubeObject,
  operators: readonly KubeObject[],
  now: number,
  mcoImage?: string,
): { core: ControlPlaneCore; insights: RawInsight[] } {
  const insights = clusterVersionInsights(cv, now);
  const desired = statusOf(cv).desired as { version?: string } | undefined;
  const targetVersion = desired?.version;
  const counts = { updated: 0, waiting: 0, total: 0 };
  const health = { unavailable: 0, degraded: 0 };
  const updating: UpdatingOperator[] = [];
  let lastObservedProgress: number | undefined;
  let mcoStartedUpdating: number | undefined;

  for (const co of operators) {
    if (!isPlatformOperator(co)) continue;
    const updated = isOperatorUpdated(co, targetVersion, mcoImage);
    if (updated) counts.updated++;
    counts.total++;
    const available = conditionOf(co, 'Available');
    const degraded = conditionOf(co, 'Degraded');
    const progressing = conditionOf(co, 'Progressing');
    if (progressing) {
      const at = transitionTimeMs(progressing);
      if (at !== undefined && (lastObservedProgress === undefined || at > lastObservedProgress))
        lastObservedProgress = at;
      if (!updated && isTrue(progressing)) {
        updating.push({
          name: co.metadata.name,
          since: formatTime(at),
          reason: progressing.reason ?? '',
          message: progressing.message ?? '',
        });
        if (co.metadata.name === 'machine-config') mcoStartedUpdating = at;
      }
      if (!updated && isFalse(progressing)) counts.waiting++;
    }
    if (!isTrue(available)) health.unavailable++;
    else if (isTrue(degraded)) health.degraded++;
    insights.push(...operatorInsights(co.metadata.name, available, degraded, now));
  }

  const completed = counts.updated === counts.total;
  // A rebooting node flips daemonset operators' Progressing; when only MCO is left, its start is the real progress.
  if (mcoStartedUpdating !== undefined && counts.total - counts.updated === 1)
    lastObservedProgress = mcoStartedUpdating;

  const history = historyOf(cv);
  const multiArchMigration = isMultiArchMigration(history);
  const current = history[0];
  const started = parseTime(current?.startedTime);
  let completionAt: number | undefined;
  let updatingFor = 0;
  let toLastProgress = 0;
  let durationMs: number | undefined;
  if (current && started !== undefined) {
    const lastProgress =
      lastObservedProgress !== undefined && lastObservedProgress > started ? lastObservedProgress : now;
    toLastProgress = lastProgress - started;
    completionAt = current.state === 'Completed' ? (parseTime(current.completionTime) ?? now) : now;
    updatingFor = completionAt - started;
    durationMs = roundDuration(updatingFor, updatingFor > 10 * MINUTE_MS ? MINUTE_MS : SECOND_MS);
  }

  const coCompletion = counts.total > 0 ? counts.updated / counts.total : 1;
  let assessment: ControlPlaneCore['assessment'] = completed ? 'Completed' : 'Progressing';
  let remaining = 0;
  let estimatedDuration: number | undefined;
  if (!completed) {
    remaining = estimateRemainingMs(baselineMs(history), toLastProgress, updatingFor, coCompletion);
    estimatedDuration = truncateDuration(updatingFor + remaining, MINUTE_MS);
    if (remaining < -10 * MINUTE_MS) assessment = 'Stalled';
    else if (remaining < 0) assessment = 'Progressing - Slow';
  }

  const core: ControlPlaneCore = {
    assessment,
    targetVersion: current?.version || null,
    previousVersion: history.length > 1 ? history[1].version || null : null,
    previousPartial: history.length > 1 && history[1].state === 'Partial',
    targetIsInstall: history.length === 1,
    multiArchMigration,
    completionPercent: roundPercent(coCompletion * 100),
    operators: { updated: counts.updated, updating: updating.length, waiting: counts.waiting, total: counts.total },
    health: { healthy: counts.total - health.unavailable - health.degraded, ...health },
    startedAt: formatTime(started),
    completedAt: current?.state === 'Completed' ? formatTime(completionAt) : null,
    durationSeconds: durationMs === undefined ? null : durationMs / SECOND_MS,
    estimatedRemainingSeconds: completed
      ? 0
      : multiArchMigration || remaining < -10 * MINUTE_MS
        ? null
        : Math.max(0, remaining / SECOND_MS),
    estimatedDurationSeconds:
      estimatedDuration === undefined || multiArchMigration ? null : estimatedDuration / SECOND_MS,
    estimateLabel:
      !completed && remaining !== 0 ? estimateLabel(remaining, estimatedDuration ?? 0, multiArchMigration) : null,
    updatingOperators: updating.map((op) => op.name),
    updatingOperatorDetails: updating,
  };
  insights.push(...versionInsights(history, completed, cv));
  return { core, insights };
}
