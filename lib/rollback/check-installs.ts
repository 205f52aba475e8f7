/**
 * Pre-flight check 5a (failure mode E): no install that never settles may be in flight; a rollback restarts OLM and
 * the failing install would keep retrying through it with only its latest, transient message to show.
 */
import type { Evidence } from '@/lib/health/types';
import { objectsOf } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import { checkResult, type RollbackCheck } from './rollback-context';

/** Check `installs`. A critical never-settling finding → block; a warning or a Retrying ClusterExtension → warn. */
export const checkInstalls: RollbackCheck = (ctx) => {
  const findings = ctx.health.findings.filter(
    (f) => f.detector === 'install-settling' && (f.severity === 'critical' || f.severity === 'warning'),
  );
  const retrying = objectsOf(ctx.snapshot, 'clusterextensions')
    .filter((ce) => {
      const progressing = conditionOf(ce, 'Progressing');
      return progressing?.status === 'True' && progressing.reason === 'Retrying';
    })
    .filter((ce) => !findings.some((f) => f.subject.kind === ce.kind && f.subject.name === ce.metadata.name));
  if (findings.length === 0 && retrying.length === 0) {
    return checkResult(
      'installs',
      'pass',
      'No never-settling installs in flight',
      'No ClusterExtension, BundleDeployment, ClusterCatalog or ClusterOperator is stuck in a failure streak.',
    );
  }
  const evidence: Evidence[] = [
    ...findings.map((f) => f.evidence[0] ?? { kind: 'condition' as const, label: f.title, ref: f.subject }),
    ...retrying.map((ce) => ({
      kind: 'condition' as const,
      label: 'Progressing=True (Retrying)',
      ref: refOf(ce),
      path: 'status.conditions[type=Progressing]',
      value: conditionOf(ce, 'Progressing')?.message ?? null,
    })),
  ];
  const names = [
    ...findings.map((f) => `${f.subject.kind} ${f.subject.name}`),
    ...retrying.map((ce) => `ClusterExtension ${ce.metadata.name}`),
  ];
  const critical = findings.some((f) => f.severity === 'critical');
  return checkResult(
    'installs',
    critical ? 'block' : 'warn',
    `${names.length} install(s) not settled: ${names.join(', ')}`,
    `${findings.map((f) => f.summary).join(' ')}${retrying.length ? ` ${retrying.length} ClusterExtension(s) are retrying.` : ''} ` +
      'Fix the root cause (or remove the install) before the rollback; otherwise it keeps failing through it and hides what the rollback changes.',
    evidence,
    findings.flatMap((f) => f.remediation).slice(0, 4),
  );
};
