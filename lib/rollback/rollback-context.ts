/**
 * What every rollback pre-flight check reads: the cluster snapshot, its assessed health, the resolved target and
 * the clock. Also the helpers that read a ClusterVersion the way the cluster-version operator and `oc` do.
 */
import type { ClusterHealthDto } from '@/lib/api/dto';
import type { RollbackCheckDto, RollbackCheckId, RollbackCheckStatus } from '@/lib/api/rollback-dto';
import type { KubeObject } from '@/lib/k8s/types';
import type { Evidence, RemediationStep, Snapshot } from '@/lib/health/types';
import { asString, dig } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { releaseForVersion } from '@/lib/release/capabilities';
import { compareVersions, parseVersion } from '@/lib/k8s/version';
import { historyOf } from '@/lib/k8s/cluster-version';

/** One ClusterVersion `status.history[]` entry, newest first in the list. */
export interface HistoryItem {
  version: string;
  image: string;
  state: string;
  startedTime: string | null;
  completionTime: string | null;
}

/** The version a plan rolls back to. */
export interface RollbackTarget {
  version: string;
  /** Release image by digest from the history; null for a version not in the history. */
  image: string | null;
  inHistory: boolean;
  /** Release key of the capability table (`4.13`, `master`), or null when unknown. */
  release: string | null;
  newerThanKnown: boolean;
}

/**
 * Which way the plan moves the cluster: back to an older release, forward to a newer one (an update, checked as
 * one even when the version is in the history), or nowhere (the target is already desired).
 */
export type PlanDirection = 'rollback' | 'roll-forward' | 'current';

/** The direction from the desired version to `target` (a rollback when the desired version is unknown). */
export function directionOf(clusterVersion: KubeObject | undefined, target: string): PlanDirection {
  const desired = desiredOf(clusterVersion).version;
  if (!desired) return 'rollback';
  const order = compareVersions(target, desired);
  return order > 0 ? 'roll-forward' : order === 0 ? 'current' : 'rollback';
}

/** Input of every check. */
export interface RollbackContext {
  snapshot: Snapshot;
  health: ClusterHealthDto;
  clusterVersion: KubeObject | undefined;
  target: RollbackTarget;
  direction: PlanDirection;
  /** Cluster time, epoch ms. */
  now: number;
  /** The user explicitly accepted the risk of a rollback the CVO does not support (cross-minor). */
  acceptCrossMinorRisk: boolean;
}

/** A pre-flight check: a pure function of the context. */
export type RollbackCheck = (context: RollbackContext) => RollbackCheckDto;

/** Builds a check result; keeps the DTO shape in one place. */
export function checkResult(
  id: RollbackCheckId,
  status: RollbackCheckStatus,
  title: string,
  detail: string,
  evidence: Evidence[] = [],
  remediation: RemediationStep[] = [],
): RollbackCheckDto {
  return { id, status, title, detail, evidence, remediation };
}

/** The ClusterVersion's release history as the rollback guide lists it: newest first, entries without a version dropped. */
export function rollbackHistory(clusterVersion: KubeObject | undefined): HistoryItem[] {
  return historyOf(clusterVersion).flatMap((h) =>
    h.version
      ? [
          {
            version: h.version,
            image: h.image ?? '',
            state: h.state ?? '',
            startedTime: h.startedTime ?? null,
            completionTime: h.completionTime ?? null,
          },
        ]
      : [],
  );
}

/** `status.desired` version and image. */
export function desiredOf(clusterVersion: KubeObject | undefined): { version: string | null; image: string | null } {
  return {
    version: asString(dig(clusterVersion, 'status', 'desired', 'version')) ?? null,
    image: asString(dig(clusterVersion, 'status', 'desired', 'image')) ?? null,
  };
}

/**
 * "The cluster's previous version" exactly as the CVO's ClusterVersionRollback precondition and
 * `oc adm upgrade rollback` pick it: the first history entry whose version or image differs from `status.desired`.
 */
export function previousEntry(clusterVersion: KubeObject | undefined): HistoryItem | undefined {
  const desired = desiredOf(clusterVersion);
  return rollbackHistory(clusterVersion).find((h) => h.version !== desired.version || h.image !== desired.image);
}

/** Whether ClusterVersion says Progressing=True (an update or rollback is being applied). */
export function isProgressing(clusterVersion: KubeObject | undefined): boolean {
  return conditionOf(clusterVersion, 'Progressing')?.status === 'True';
}

/** Whether ClusterVersion reports Failing=True (oc then needs `--allow-upgrade-with-warnings`). */
export function isFailing(clusterVersion: KubeObject | undefined): boolean {
  return conditionOf(clusterVersion, 'Failing')?.status === 'True';
}

/**
 * Resolves a target version against the history (newest matching entry gives the image) and the capability table.
 * Returns undefined when `version` is not a release version.
 */
export function resolveTarget(clusterVersion: KubeObject | undefined, version: string): RollbackTarget | undefined {
  const parsed = parseVersion(version);
  if (!parsed) return undefined;
  const entry = rollbackHistory(clusterVersion).find((h) => h.version === parsed.raw && h.image);
  const match = releaseForVersion(parsed.raw);
  return {
    version: parsed.raw,
    image: entry?.image ?? null,
    inHistory: entry !== undefined,
    release: match?.release ?? null,
    newerThanKnown: match?.newerThanKnown ?? false,
  };
}
