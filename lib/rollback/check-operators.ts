/**
 * Pre-flight check 5b: every ClusterOperator Available and not Degraded. A rollback starting from an unavailable
 * operator cannot tell its own damage from what was already broken.
 */
import type { Evidence } from '@/lib/health/types';
import { objectsOf } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import { checkResult, type RollbackCheck } from './rollback-context';

/** The status-write-rejection findings saying the CVO cannot write ClusterVersion status now (or at its next write). */
function cvoCannotReport(ctx: Parameters<RollbackCheck>[0]) {
  return ctx.health.findings.filter(
    (f) => f.detector === 'status-write-rejection' && (f.severity === 'critical' || f.severity === 'warning'),
  );
}

/**
 * Check `operators`. Available=False → block; Degraded=True → warn. While the CVO cannot write ClusterVersion
 * status (writes rejected, status stale) the control plane's health cannot be verified: block a rollback, warn a
 * roll-forward (the usual fix), never pass.
 */
export const checkOperators: RollbackCheck = (ctx) => {
  const frozen = cvoCannotReport(ctx);
  if (frozen.length) {
    return checkResult(
      'operators',
      ctx.direction === 'rollback' ? 'block' : 'warn',
      'Control plane health cannot be verified: the CVO cannot report',
      `${frozen.map((f) => f.title).join('; ')}. ClusterVersion status is frozen, so the operator versions and ` +
        'conditions it aggregates are not current, and the change could not be followed through it. ' +
        (ctx.direction === 'rollback'
          ? "Restore the CVO's status writes first (roll forward to a release whose CRD accepts the enabled " +
            'capabilities).'
          : 'A roll-forward to a release whose CRD accepts the enabled capabilities is the fix; follow it with ' +
            '`oc get clusteroperators`.'),
      frozen.flatMap((f) => f.evidence.slice(0, 2)),
      [
        {
          title: 'Confirm the rejected writes in the CVO log',
          command: "oc -n openshift-cluster-version logs deploy/cluster-version-operator | grep 'is invalid'",
        },
        { title: 'Read operator health directly, not through ClusterVersion', command: 'oc get clusteroperators' },
      ],
    );
  }
  const operators = objectsOf(ctx.snapshot, 'clusteroperators');
  if (operators.length === 0) {
    return checkResult(
      'operators',
      'warn',
      'No ClusterOperators visible',
      'The guide cannot see any ClusterOperator, so it cannot confirm they are healthy.',
    );
  }
  const evidence: Evidence[] = [];
  const unavailable: string[] = [];
  const degraded: string[] = [];
  for (const co of operators) {
    const available = conditionOf(co, 'Available');
    const deg = conditionOf(co, 'Degraded');
    if (available?.status !== 'True') {
      unavailable.push(co.metadata.name);
      evidence.push({
        kind: 'condition',
        label: `Available=${available?.status ?? 'Unknown'}${available?.reason ? ` (${available.reason})` : ''}`,
        ref: refOf(co),
        path: 'status.conditions[type=Available]',
        value: available?.message ?? null,
        ...(available?.lastTransitionTime ? { at: available.lastTransitionTime } : {}),
      });
    }
    if (deg?.status === 'True') {
      degraded.push(co.metadata.name);
      evidence.push({
        kind: 'condition',
        label: `Degraded=True${deg.reason ? ` (${deg.reason})` : ''}`,
        ref: refOf(co),
        path: 'status.conditions[type=Degraded]',
        value: deg.message ?? null,
        ...(deg.lastTransitionTime ? { at: deg.lastTransitionTime } : {}),
      });
    }
  }
  if (unavailable.length === 0 && degraded.length === 0) {
    return checkResult(
      'operators',
      'pass',
      `All ${operators.length} ClusterOperators Available and not Degraded`,
      'The rollback starts from a healthy control plane.',
    );
  }
  const parts = [
    unavailable.length ? `Unavailable: ${unavailable.join(', ')}.` : '',
    degraded.length ? `Degraded: ${degraded.join(', ')}.` : '',
  ].filter(Boolean);
  return checkResult(
    'operators',
    unavailable.length ? 'block' : 'warn',
    `${unavailable.length + degraded.length} ClusterOperator(s) not healthy`,
    `${parts.join(' ')} Resolve these first: a rollback from an unhealthy control plane cannot tell its own damage from what was already broken.`,
    evidence,
    [
      {
        title: 'List unhealthy operators',
        command: 'oc get clusteroperators | awk \'NR==1 || $3!="True" || $5!="False"\'',
      },
    ],
  );
};
