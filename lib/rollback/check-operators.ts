/**
 * Pre-flight check 5b: every ClusterOperator Available and not Degraded. A rollback starting from an unavailable
 * operator cannot tell its own damage from what was already broken.
 */
import type { Evidence } from '@/lib/health/types';
import { conditionOf, objectsOf, refOf } from '@/lib/health/objects';
import { checkResult, type RollbackCheck } from './rollback-context';

/** Check `operators`. Available=False → block; Degraded=True → warn. */
export const checkOperators: RollbackCheck = (ctx) => {
  const operators = objectsOf(ctx.snapshot, 'clusteroperators');
  if (operators.length === 0) {
    return checkResult('operators', 'warn', 'No ClusterOperators visible', 'The guide cannot see any ClusterOperator, so it cannot confirm they are healthy.');
  }
  const evidence: Evidence[] = [];
  const unavailable: string[] = [];
  const degraded: string[] = [];
  for (const co of operators) {
    const available = conditionOf(co, 'Available');
    const deg = conditionOf(co, 'Degraded');
    if (available?.status !== 'True') {
      unavailable.push(co.metadata.name);
      evidence.push({ kind: 'condition', label: `Available=${available?.status ?? 'Unknown'}${available?.reason ? ` (${available.reason})` : ''}`, ref: refOf(co), path: 'status.conditions[type=Available]', value: available?.message ?? null, ...(available?.lastTransitionTime ? { at: available.lastTransitionTime } : {}) });
    }
    if (deg?.status === 'True') {
      degraded.push(co.metadata.name);
      evidence.push({ kind: 'condition', label: `Degraded=True${deg.reason ? ` (${deg.reason})` : ''}`, ref: refOf(co), path: 'status.conditions[type=Degraded]', value: deg.message ?? null, ...(deg.lastTransitionTime ? { at: deg.lastTransitionTime } : {}) });
    }
  }
  if (unavailable.length === 0 && degraded.length === 0) {
    return checkResult('operators', 'pass', `All ${operators.length} ClusterOperators Available and not Degraded`, 'The rollback starts from a healthy control plane.');
  }
  const parts = [
    unavailable.length ? `Unavailable: ${unavailable.join(', ')}.` : '',
    degraded.length ? `Degraded: ${degraded.join(', ')}.` : '',
  ].filter(Boolean);
  return checkResult('operators', unavailable.length ? 'block' : 'warn',
    `${unavailable.length + degraded.length} ClusterOperator(s) not healthy`,
    `${parts.join(' ')} Resolve these first: a rollback from an unhealthy control plane cannot tell its own damage from what was already broken.`,
    evidence, [{ title: 'List unhealthy operators', command: "oc get clusteroperators | awk 'NR==1 || $3!=\"True\" || $5!=\"False\"'" }]);
};
