/**
 * Failure mode E — installs/upgrades that never settle. An OLM install fails, the provisioner rolls back, the status
 * change requeues the object at once, and later attempts fail on transient cleanup errors: the condition ends up
 * showing the transient error instead of the root cause. Only the retained transition history still has the latter.
 */
import type { ObjectRef } from '@/lib/k8s/types';
import type {
  ConditionTransition,
  Detector,
  DetectorContext,
  DetectorOutput,
  Evidence,
  Finding,
  RemediationStep,
  Snapshot,
} from '@/lib/health/types';
import { findObject, findingId, timeOf } from '@/lib/health/shared/objects';
import { RESOURCES, RESOURCE_NAMES } from '@/lib/k8s/resources';
import {
  analyzeStreak,
  REQUEUE_WINDOW_MS,
  transientLabel,
  type StreakAnalysis,
} from '@/lib/health/detectors/install-settling/condition-streaks';

const ID = 'install-settling' as const;
/** Streaks shorter than this are ordinary retries, not a failure that never settles. */
const MIN_STREAK = 2;

function refKey(ref: ObjectRef): string {
  return `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`;
}

function quote(t: ConditionTransition | undefined): string {
  return t ? `${t.type}=${t.status}${t.reason ? ` (${t.reason})` : ''}: "${t.message ?? ''}"` : 'none';
}

function remediation(ref: ObjectRef): RemediationStep[] {
  const get = `oc get ${ref.kind.toLowerCase()} ${ref.namespace ? `-n ${ref.namespace} ` : ''}${ref.name} -o yaml`;
  const steps: RemediationStep[] = [{ title: 'Read the current conditions', command: get }];
  if (ref.kind === 'ClusterExtension') {
    steps.push({
      title: 'Find every attempt in the operator-controller log (the root cause is the first error)',
      command: `oc -n openshift-operator-controller logs deploy/operator-controller-controller-manager -c manager | grep '${ref.name}'`,
    });
  } else if (ref.kind === 'ClusterCatalog') {
    steps.push({
      title: 'Read the catalogd log',
      command: `oc -n openshift-catalogd logs deploy/catalogd-controller-manager -c manager | grep '${ref.name}'`,
    });
  } else if (ref.kind === 'ClusterOperator') {
    steps.push({
      title: 'Collect the operator namespace for analysis',
      command: `oc adm inspect clusteroperator/${ref.name}`,
    });
  }
  steps.push({
    title: 'Fix the root cause shown in this finding, not the latest (transient) message; the retries then settle',
  });
  return steps;
}

/** Where ClusterExtension reconcile errors are logged: operator-controller's manager container. */
const OPERATOR_CONTROLLER_LOGS = {
  namespace: 'openshift-operator-controller',
  labelSelector: 'control-plane=operator-controller-controller-manager',
  container: 'manager',
  tailLines: 300,
} as const;
const MAX_LOG_LINES = 6;

/** The newest operator-controller log lines about a ClusterExtension: each attempt's full error, as logged. */
function reconcileLogEvidence(ref: ObjectRef, snapshot: Snapshot): Evidence[] {
  if (ref.kind !== 'ClusterExtension') return [];
  const quoted = `"${ref.name}"`;
  return snapshot.logs
    .filter(
      (log) =>
        log.ref.namespace === OPERATOR_CONTROLLER_LOGS.namespace &&
        log.container === OPERATOR_CONTROLLER_LOGS.container,
    )
    .flatMap((log) => {
      const lines = log.lines.filter((line) => line.includes(quoted)).slice(-MAX_LOG_LINES);
      return lines.length
        ? [
            {
              kind: 'log' as const,
              label: 'operator-controller reconcile errors',
              ref: log.ref,
              container: log.container,
              lines,
            },
          ]
        : [];
    });
}

/** The object behind a streak, trimmed to what tells an SRE what was being installed (spec, labels, annotations). */
function objectEvidence(ref: ObjectRef, snapshot: Snapshot): Evidence[] {
  const resource = RESOURCE_NAMES.find((name) => RESOURCES[name].kind === ref.kind);
  const object = resource ? findObject(snapshot, resource, ref.name, ref.namespace) : undefined;
  if (!object) return [];
  const { name, namespace, labels, annotations, generation } = object.metadata;
  return [
    {
      kind: 'object',
      label: `${ref.kind} ${ref.name}`,
      ref,
      excerpt: { metadata: { name, namespace, labels, annotations, generation }, spec: object.spec },
    },
  ];
}

function streakFinding(a: StreakAnalysis, changesLastMinute: number, logs: Evidence[]): Finding | undefined {
  if (!a.active || a.streakLength < MIN_STREAK || !a.rootCause || !a.latest) return undefined;
  const latestTransient = transientLabel(a.latest.message);
  const rootTransient = transientLabel(a.rootCause.message);
  const differs = a.latest.message !== a.rootCause.message;
  const masked = differs && latestTransient !== undefined && rootTransient === undefined;
  const requeue = a.requeueBursts >= 2;
  const name = `${a.ref.kind} ${a.ref.namespace ? `${a.ref.namespace}/` : ''}${a.ref.name}`;
  const cadence = requeue
    ? `Status changes come in bursts within ${REQUEUE_WINDOW_MS / 1000} s (${a.requeueBursts} bursts, ${a.writesPerBurst.toFixed(1)} reconciles each): ` +
      'each status write requeues the object at once instead of waiting for the backoff.'
    : '';
  const evidence: Evidence[] = [
    {
      kind: 'condition',
      label: 'Root cause (first non-transient failure)',
      ref: a.ref,
      path: `status.conditions[type=${a.rootCause.type}]`,
      value: a.rootCause.message ?? null,
      at: a.rootCause.at,
    },
    {
      kind: 'condition',
      label: `Latest message${latestTransient ? ` (transient: ${latestTransient})` : ''}`,
      ref: a.ref,
      path: `status.conditions[type=${a.latest.type}]`,
      value: a.latest.message ?? null,
      at: a.latest.at,
    },
    { kind: 'metric', label: 'Failed attempts in the streak', value: a.streakLength },
    { kind: 'metric', label: 'Status changes in the last minute', value: changesLastMinute },
  ];
  if (requeue)
    evidence.push({
      kind: 'metric',
      label: `Immediate-requeue bursts (writes ≤ ${REQUEUE_WINDOW_MS / 1000} s apart)`,
      value: a.requeueBursts,
    });
  evidence.push(...logs);
  return {
    id: findingId(ID, a.ref, 'streak'),
    detector: ID,
    severity: masked ? 'critical' : 'warning',
    subject: a.ref,
    title: masked ? `${name}: root cause hidden behind a transient error` : `${name} keeps failing`,
    summary: [
      `${a.streakLength} failed attempts in a row; failing since ${a.onset ?? a.rootCause.at}.`,
      `Root cause: ${quote(a.rootCause)}.`,
      differs ? `Latest: ${quote(a.latest)}.` : 'The latest attempt fails the same way.',
      masked ? `The condition now shows only the transient "${latestTransient}" error, which is not actionable.` : '',
      cadence,
    ]
      .filter(Boolean)
      .join(' '),
    evidence,
    remediation: remediation(a.ref),
    since: a.onset ?? a.rootCause.at,
  };
}

function detect(snapshot: Snapshot, ctx: DetectorContext): DetectorOutput {
  const byRef = new Map<string, { ref: ObjectRef; transitions: ConditionTransition[] }>();
  for (const t of snapshot.transitions) {
    // ClusterVersion's Progressing/Failing story belongs to update progress and failure mode B.
    if (t.ref.kind === 'ClusterVersion') continue;
    const key = refKey(t.ref);
    const entry = byRef.get(key) ?? { ref: t.ref, transitions: [] };
    entry.transitions.push(t);
    byRef.set(key, entry);
  }
  const findings: Finding[] = [];
  let streakLength = 0;
  let statusChangesLastMinute = 0;
  for (const key of [...byRef.keys()].sort()) {
    const { ref, transitions } = byRef.get(key)!;
    const analysis = analyzeStreak(ref, transitions);
    const recent = analysis.writes.filter((w) => {
      const t = timeOf(w);
      return t !== undefined && t > ctx.now - 60_000 && t <= ctx.now;
    }).length;
    if (analysis.active) streakLength = Math.max(streakLength, analysis.streakLength);
    statusChangesLastMinute = Math.max(statusChangesLastMinute, recent);
    const f = streakFinding(analysis, recent, [
      ...reconcileLogEvidence(ref, snapshot),
      ...objectEvidence(ref, snapshot),
    ]);
    if (f) findings.push(f);
  }
  return { findings, samples: { streakLength, statusChangesLastMinute } };
}

/**
 * Detector E. Emits `install-settling:<Kind>/<namespace>/<name>:streak` for any object (ClusterExtension,
 * BundleDeployment, ClusterCatalog, ClusterOperator, other standard-condition objects; not ClusterVersion) failing
 * at its newest status write after ≥ 2 failed attempts: critical when the latest message is a transient error that
 * hides a different root cause, warning otherwise. The root cause (the episode's first non-transient failure, kept
 * across streak resets) is shown beside
 * the latest message, with the immediate-requeue cadence when status writes come ≤ 5 s apart in repeated bursts,
 * and, for ClusterExtensions, operator-controller's newest log lines about the object.
 * Samples: `streakLength` (longest active streak, 0 if none), `statusChangesLastMinute` (most status writes of
 * one object within the last 60 s of `now`).
 */
export const installSettling: Detector = {
  id: ID,
  title: 'Install settling',
  insight: {
    impactType: 'Application Availability',
    scopeType: 'Cluster',
    referenceUrl: 'https://docs.openshift.com/container-platform/latest/extensions/ce/managing-ce.html',
  },
  needs: [{ resource: 'clusterextensions' }, { resource: 'clustercatalogs' }, { resource: 'clusteroperators' }],
  logs: [OPERATOR_CONTROLLER_LOGS],
  detect,
};
