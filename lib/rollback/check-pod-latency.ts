/**
 * Pre-flight check 6 (failure mode D): a rollback drains nodes and recreates their pods; if OVN-Kubernetes already
 * wires pods slowly, a mass re-creation makes them time out.
 */
import { checkResult, type RollbackCheck } from './rollback-context';

/** Check `pod-latency`. From the pod-setup-latency findings: critical → block, warning → warn, no metrics → warn. */
export const checkPodLatency: RollbackCheck = (ctx) => {
  const findings = ctx.health.findings.filter((f) => f.detector === 'pod-setup-latency');
  const worst = findings.find((f) => f.severity === 'critical') ?? findings.find((f) => f.severity === 'warning');
  if (worst) {
    const critical = worst.severity === 'critical';
    return checkResult(
      'pod-latency',
      critical ? 'block' : 'warn',
      worst.title,
      `${worst.summary} A rollback drains every node and recreates its pods; ${critical ? 'at this latency they will fail' : 'expect slow pod start-up'}. ` +
        'Let latency recover (or drain fewer nodes at a time via maxUnavailable on the pools) first.',
      worst.evidence,
      worst.remediation,
    );
  }
  if (findings.some((f) => f.severity === 'info') || !ctx.snapshot.latency) {
    return checkResult(
      'pod-latency',
      'warn',
      'Pod-setup latency unknown',
      'No metrics source reports ovnkube_controller_pod_creation_latency_seconds, so the guide cannot confirm pods will be wired quickly when the rollback drains nodes. This is not a sign of health.',
      [],
      findings.flatMap((f) => f.remediation),
    );
  }
  return checkResult(
    'pod-latency',
    'pass',
    'Pod-setup latency healthy',
    'p99 pod-creation latency is below the warning threshold: nodes can be drained and their pods recreated.',
  );
};
