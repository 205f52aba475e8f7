/**
 * A rollback plan: every pre-flight check of SPEC §7 against one target, whether the rollback is allowed, and the
 * commands to run. Pure; works at any phase of the cluster (before, during or after an update or a rollback).
 */
import type { ClusterHealthDto } from '@/lib/api/dto';
import type { RollbackCandidateDto, RollbackPlanDto } from '@/lib/api/rollback-dto';
import type { Snapshot } from '@/lib/health/types';
import { clusterVersionOf } from '@/lib/health/shared/objects';
import { checkCapabilities } from './check-capabilities';
import { checkCatalog } from './check-catalog';
import { checkCvoRules } from './check-cvo-rules';
import { checkFeatureGate } from './check-featuregate';
import { checkInstalls } from './check-installs';
import { checkOperators } from './check-operators';
import { checkPodLatency } from './check-pod-latency';
import { rollbackCommands } from './rollback-commands';
import {
  desiredOf,
  directionOf,
  rollbackHistory,
  isProgressing,
  previousEntry,
  resolveTarget,
  type RollbackCheck,
  type RollbackContext,
} from './rollback-context';

/** The checks in the order the guide shows them. */
export const ROLLBACK_CHECKS: readonly RollbackCheck[] = [
  checkCvoRules,
  checkCapabilities,
  checkFeatureGate,
  checkCatalog,
  checkInstalls,
  checkOperators,
  checkPodLatency,
];

/** Options of {@link planRollback}. */
export interface PlanOptions {
  /** Target version (from the history, or any release version for a what-if). */
  target: string;
  /** Cluster time, epoch ms. */
  now: number;
  acceptCrossMinorRisk?: boolean;
}

/** The history entries a user can pick, newest first, the CVO's "previous version" marked. */
export function rollbackCandidates(snapshot: Snapshot): RollbackCandidateDto[] {
  const cv = clusterVersionOf(snapshot);
  const previous = previousEntry(cv);
  const desired = desiredOf(cv);
  const seen = new Set<string>();
  return rollbackHistory(cv)
    .filter((h) => {
      if (seen.has(h.version) || h.version === desired.version || !h.image) return false;
      seen.add(h.version);
      return true;
    })
    .map((h) => ({
      version: h.version,
      image: h.image,
      state: h.state,
      previous: h.version === previous?.version && h.image === previous.image,
    }));
}

/** Plans a rollback to `options.target`; `undefined` when the target is not a release version. */
export function planRollback(
  snapshot: Snapshot,
  health: ClusterHealthDto,
  options: PlanOptions,
): RollbackPlanDto | undefined {
  const clusterVersion = clusterVersionOf(snapshot);
  const target = resolveTarget(clusterVersion, options.target);
  if (!target) return undefined;
  const acceptCrossMinorRisk = options.acceptCrossMinorRisk ?? false;
  const direction = directionOf(clusterVersion, target.version);
  const context: RollbackContext = {
    snapshot,
    health,
    clusterVersion,
    target,
    direction,
    now: options.now,
    acceptCrossMinorRisk,
  };
  const checks = ROLLBACK_CHECKS.map((check) => check(context));
  const { commands, notes } = rollbackCommands(clusterVersion, target, acceptCrossMinorRisk);
  const desired = desiredOf(clusterVersion);
  const history = rollbackHistory(clusterVersion);
  return {
    clusterId: health.cluster.id,
    computedAt: options.now,
    target: { version: target.version, image: target.image, inHistory: target.inHistory, release: target.release },
    direction,
    current: {
      version: health.cluster.version,
      desiredVersion: desired.version,
      image: desired.image,
      progressing: isProgressing(clusterVersion),
    },
    acceptCrossMinorRisk,
    allowed: checks.every((c) => c.status !== 'block'),
    checks,
    commands,
    notes,
    candidates: rollbackCandidates(snapshot),
    baseline: {
      historyLength: history.length,
      firstHistoryStartedTime: history[0]?.startedTime ?? null,
      findingIds: health.findings.map((f) => f.id),
    },
  };
}
