/**
 * Maps an {@link UpdateProgress} to findings and samples of the `update-progress` detector.
 */
import type { ObjectRef } from '@/lib/k8s/types';
import { apiVersionOf } from '@/lib/k8s/resources';
import type { Evidence, Finding, InsightImpactType, RemediationStep, Severity } from '@/lib/health/types';
import type { UpdateInsight, UpdateProgress } from '@/lib/health/update-progress/types';
import { formatShortDuration, poolBehind, poolNodeCounts } from '@/lib/health/update-progress/util';

const STATUS_STEP: RemediationStep = {
  title: 'Review the update status with all details',
  command: 'oc adm upgrade status --details=all',
};

const CLUSTER_VERSION: ObjectRef = {
  apiVersion: apiVersionOf('clusterversions'),
  kind: 'ClusterVersion',
  name: 'version',
};

const SEVERITY: Record<UpdateInsight['level'], Severity> = { Error: 'critical', Warning: 'warning', Info: 'info' };

function subjectRef(insight: UpdateInsight): ObjectRef {
  const subject = insight.subject;
  if (!subject) return CLUSTER_VERSION;
  switch (subject.kind) {
    case 'ClusterOperator':
      return { apiVersion: apiVersionOf('clusteroperators'), kind: 'ClusterOperator', name: subject.name };
    case 'Node':
      return { apiVersion: apiVersionOf('nodes'), kind: 'Node', name: subject.name };
    case 'MachineConfigPool':
      return { apiVersion: apiVersionOf('machineconfigpools'), kind: 'MachineConfigPool', name: subject.name };
    case 'ClusterVersion':
      return { ...CLUSTER_VERSION, name: subject.name };
    default:
      return { kind: 'Alert', name: subject.name, ...(subject.namespace ? { namespace: subject.namespace } : {}) };
  }
}

function remediation(insight: UpdateInsight): RemediationStep[] {
  const steps: RemediationStep[] = [STATUS_STEP];
  const subject = insight.subject;
  const name = subject?.name ?? '';
  switch (subject?.kind) {
    case 'ClusterOperator':
      steps.push({ title: `Inspect ClusterOperator ${name}`, command: `oc get clusteroperator ${name} -o yaml` });
      break;
    case 'Node':
      steps.push({ title: `Inspect node ${name}`, command: `oc describe node ${name}` });
      break;
    case 'MachineConfigPool':
      steps.push({ title: `Inspect MachineConfigPool ${name}`, command: `oc get machineconfigpool ${name} -o yaml` });
      steps.push({
        title: 'Unpause the pool when its nodes may be updated',
        command: `oc patch machineconfigpool ${name} --type merge -p '{"spec":{"paused":false}}'`,
      });
      break;
    case 'ClusterVersion':
      steps.push({ title: 'Inspect the ClusterVersion', command: `oc get clusterversion ${name} -o yaml` });
      break;
    default:
      break;
  }
  if (insight.reference?.startsWith('http')) steps.push({ title: 'Reference', docUrl: insight.reference });
  return steps;
}

function evidence(insight: UpdateInsight, ref: ObjectRef): Evidence[] {
  const out: Evidence[] = [];
  if (insight.condition) {
    const c = insight.condition;
    out.push({
      kind: 'condition',
      label: `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`,
      ref,
      path: `status.conditions[type=${c.type}]`,
      value: c.message ?? null,
      ...(c.lastTransitionTime ? { at: c.lastTransitionTime } : {}),
    });
  }
  if (insight.description) out.push({ kind: 'field', label: 'Description', ref, value: insight.description });
  if (insight.since) out.push({ kind: 'field', label: 'Since', ref, value: insight.since, at: insight.since });
  out.push({ kind: 'field', label: 'Impact', ref, value: insight.impact });
  return out;
}

const IMPACT_TYPES: ReadonlySet<string> = new Set<InsightImpactType>([
  'None',
  'Unknown',
  'API Availability',
  'Cluster Capacity',
  'Application Availability',
  'Application Outage',
  'Data Loss',
  'Update Speed',
  'Update Stalled',
]);

/** One finding per insight, except `oc`'s filler "Update is proceeding well" (the summary finding covers it). */
export function insightFindings(progress: UpdateProgress): Finding[] {
  return progress.insights
    .filter((insight) => insight.id !== 'update-proceeding')
    .map((insight) => {
      const ref = subjectRef(insight);
      const finding: Finding = {
        id: `update-progress/${insight.id}`,
        detector: 'update-progress',
        severity: SEVERITY[insight.level],
        subject: ref,
        title: insight.message,
        summary: `${insight.level} (${insight.impact}): ${insight.description || insight.message}`,
        evidence: evidence(insight, ref),
        remediation: remediation(insight),
        // oc's own insight, as oc reports it
        insight: {
          level: insight.level,
          impactType: IMPACT_TYPES.has(insight.impact) ? (insight.impact as InsightImpactType) : 'Unknown',
          scope: { type: insight.scope, resources: [ref] },
          ...(insight.reference ? { referenceUrl: insight.reference } : {}),
        },
      };
      if (insight.since) finding.since = insight.since;
      return finding;
    });
}

function progressLine(progress: UpdateProgress): string {
  const cp = progress.controlPlane;
  const from = cp.previousVersion ? ` (from ${cp.previousPartial ? 'incomplete ' : ''}${cp.previousVersion})` : '';
  const duration = cp.durationSeconds === null ? '' : `, running for ${formatShortDuration(cp.durationSeconds)}`;
  const estimate = cp.estimateLabel ? ` (est. remaining: ${cp.estimateLabel})` : '';
  const pools = progress.workerPools
    .filter((pool) => pool.totalNodes > 0)
    .map(
      (pool) => `${pool.name} ${pool.assessment} ${pool.completionPercent}% (${pool.updatedNodes}/${pool.totalNodes})`,
    );
  return (
    `Control plane ${cp.assessment} to ${cp.targetVersion ?? 'unknown'}${from}: ${cp.completionPercent}% ` +
    `(${cp.operators.updated} operators updated, ${cp.operators.updating} updating, ${cp.operators.waiting} waiting)` +
    `${duration}${estimate}.${pools.length ? ` Worker pools: ${pools.join(', ')}.` : ''}`
  );
}

/** The summary finding: `ok` while an update goes as expected, `info` when it is slow or stalled; `ok` when idle. */
export function summaryFinding(progress: UpdateProgress): Finding[] {
  const cp = progress.controlPlane;
  if (cp.assessment === 'Unknown') return [];
  const base = { detector: 'update-progress' as const, subject: CLUSTER_VERSION, remediation: [STATUS_STEP] };
  // Nodes whose version cannot be told (no MachineConfig in the data) make oc say "updating"; nothing is known behind.
  const nothingBehind = cp.assessment === 'Completed' && !progress.workerPools.some(poolBehind);
  if (!progress.updating || nothingBehind) {
    const installed = cp.targetIsInstall ? ` (installed, never updated)` : '';
    return [
      {
        ...base,
        id: 'update-progress/summary',
        severity: 'ok',
        title:
          cp.targetIsInstall && cp.targetVersion
            ? `Installed ${cp.targetVersion}, not updating`
            : 'The cluster is not updating',
        summary: `The cluster is at ${cp.targetVersion ?? 'an unknown version'}${installed}; no update is in progress.`,
        evidence: [
          {
            kind: 'field',
            label: 'Version',
            ref: CLUSTER_VERSION,
            path: 'status.history[0].version',
            value: cp.targetVersion,
          },
        ],
      },
    ];
  }
  const troubled = cp.assessment === 'Stalled' || cp.assessment === 'Progressing - Slow';
  // ClusterVersion says Completed long before the pools finish rolling out: name what is still updating.
  const behind = progress.workerPools.filter(poolBehind).map((pool) => {
    const counts = poolNodeCounts(pool);
    return `${pool.name} ${counts.updated}/${counts.total}`;
  });
  const evidenceList: Evidence[] = [
    { kind: 'metric', label: 'Control-plane completion', value: cp.completionPercent, unit: '%' },
    { kind: 'field', label: 'Assessment', ref: CLUSTER_VERSION, value: cp.assessment },
    { kind: 'field', label: 'Updating operators', value: cp.updatingOperators },
    {
      kind: 'field',
      label: 'Operator health',
      value: `${cp.health.healthy} healthy, ${cp.health.unavailable} unavailable, ${cp.health.degraded} available but degraded`,
    },
  ];
  if (cp.durationSeconds !== null)
    evidenceList.push({ kind: 'metric', label: 'Duration', value: cp.durationSeconds, unit: 's' });
  const finding: Finding = {
    ...base,
    id: 'update-progress/summary',
    severity: troubled ? 'info' : 'ok',
    title:
      cp.assessment === 'Completed' && behind.length > 0
        ? `Update to ${cp.targetVersion ?? 'unknown'}: control plane Completed, workers updating (${behind.join(', ')})`
        : `Update to ${cp.targetVersion ?? 'unknown'}: ${cp.assessment}, ${cp.completionPercent}% of operators updated`,
    summary: progressLine(progress),
    evidence: evidenceList,
  };
  if (cp.startedAt) finding.since = cp.startedAt;
  return [finding];
}

/** Samples charted over time; `null` when there is no ClusterVersion. */
export function progressSamples(progress: UpdateProgress): Record<string, number | null> {
  const cp = progress.controlPlane;
  if (cp.assessment === 'Unknown') {
    return {
      completionPercent: null,
      updatedOperators: null,
      unavailableOperators: null,
      degradedOperators: null,
      updatedNodes: null,
    };
  }
  const nodes = [...cp.nodes, ...progress.workerPools.flatMap((pool) => pool.nodes)];
  return {
    completionPercent: cp.completionPercent,
    updatedOperators: cp.operators.updated,
    unavailableOperators: cp.health.unavailable,
    degradedOperators: cp.health.degraded,
    updatedNodes: nodes.filter((node) => node.phase === 'Updated').length,
  };
}
