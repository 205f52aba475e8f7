/**
 * The live rollback tracker: steps derived purely from the plan taken when the rollback started and the cluster's
 * health now (new history entry for the target, operators reaching it, findings clearing or appearing).
 */
import type { ClusterHealthDto } from '@/lib/api/dto';
import type { RollbackPlanDto, RollbackTrackerStepDto } from '@/lib/api/rollback-dto';

/** The tracker's steps and whether the rollback has finished (completed, or stopped by a new problem). */
export interface RollbackTracking {
  steps: RollbackTrackerStepDto[];
  finished: boolean;
}

function step(
  id: RollbackTrackerStepDto['id'],
  status: RollbackTrackerStepDto['status'],
  title: string,
  detail: string,
): RollbackTrackerStepDto {
  return { id, status, title, detail };
}

/** Tracks a rollback started from `planAtStart` using the health observed now. */
export function trackRollback(planAtStart: RollbackPlanDto, healthNow: ClusterHealthDto): RollbackTracking {
  const target = planAtStart.target.version;
  const { cluster, updateProgress, findings } = healthNow;
  const requested = cluster.desiredVersion === target;
  const first = cluster.history[0];
  const newEntry =
    first?.version === target &&
    (cluster.history.length > planAtStart.baseline.historyLength ||
      first.startedTime !== planAtStart.baseline.firstHistoryStartedTime);
  const completed = newEntry && first.state === 'Completed';
  const cp = updateProgress?.controlPlane;
  const ops = cp && cp.targetVersion === target ? cp.operators : undefined;
  const opsDone = completed || (ops !== undefined && ops.total > 0 && ops.updated === ops.total);

  const baseline = new Set(planAtStart.baseline.findingIds);
  const appeared = findings.filter(
    (f) => !baseline.has(f.id) && (f.severity === 'critical' || f.severity === 'warning'),
  );
  const nowIds = new Set(findings.map((f) => f.id));
  const cleared = planAtStart.baseline.findingIds.filter((id) => !nowIds.has(id));

  const steps: RollbackTrackerStepDto[] = [
    step(
      'requested',
      requested ? 'done' : 'active',
      `ClusterVersion targets ${target}`,
      requested
        ? `status.desired.version is ${target}.`
        : `Waiting for the command: status.desired.version is still ${cluster.desiredVersion ?? 'unknown'}.`,
    ),
    step(
      'history-entry',
      newEntry ? 'done' : requested ? 'active' : 'pending',
      `New history entry for ${target}`,
      newEntry
        ? `${first.version} ${first.state} since ${first.startedTime ?? 'unknown'}.`
        : 'The CVO has not recorded the rollback in status.history yet.',
    ),
    step(
      'operators',
      opsDone ? 'done' : newEntry ? 'active' : 'pending',
      `ClusterOperators at ${target}`,
      ops
        ? `${ops.updated} of ${ops.total} operators report ${target}${ops.updating ? `; ${ops.updating} updating` : ''}.`
        : 'No operator has reported the target yet.',
    ),
    step(
      'completed',
      completed ? 'done' : opsDone ? 'active' : 'pending',
      `History entry ${target} Completed`,
      completed ? `Completed at ${first.completionTime ?? 'unknown'}.` : 'Not completed yet.',
    ),
    step(
      'findings',
      appeared.length ? 'failed' : cleared.length ? 'done' : requested ? 'active' : 'pending',
      'Findings since the rollback started',
      [
        appeared.length
          ? `Appeared: ${appeared.map((f) => f.title).join('; ')}.`
          : 'No new warning or critical finding.',
        cleared.length ? `Cleared: ${cleared.length}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
    ),
  ];
  return { steps, finished: completed || appeared.some((f) => f.severity === 'critical') };
}
