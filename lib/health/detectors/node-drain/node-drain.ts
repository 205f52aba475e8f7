/**
 * Slow node drains during an update. The machine-config drain controller cordons a node, evicts its pods and, once
 * none is left, lets the daemon reboot it; an eviction refused by a PodDisruptionBudget at its limit keeps the node
 * Draining (oc adm upgrade status: phase Draining) until the daemon gives up with "failed to drain node: <node>
 * after 1 hour". This detector names the node and the pods that hold it long before that.
 */
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { Detector, DetectorContext, DetectorOutput, Evidence, Finding, Snapshot } from '@/lib/health/types';
import { asArray, asNumber, asObject, asString, dig, findingId, objectsOf, timeOf } from '@/lib/health/shared/objects';
import { matchesSelector, type LabelSelector } from '@/lib/k8s/selectors';
import { refOf } from '@/lib/k8s/refs';
import { DESIRED_DRAIN, LAST_APPLIED_DRAIN, MCD_REASON, MCD_STATE } from '@/lib/health/update-progress/nodes';

const ID = 'node-drain' as const;
/** oc estimates +10m for a node in phase Draining; a drain still running after that is slow. */
export const SLOW_DRAIN_MS = 10 * 60_000;
const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';
const FAILED_DRAIN_RE = /failed to drain node/i;
const DRAIN_DOC =
  'https://docs.openshift.com/container-platform/latest/nodes/nodes/nodes-nodes-working.html' +
  '#nodes-nodes-working-evacuating_nodes-nodes-working';

const annotationOf = (node: KubeObject, key: string): string | undefined => node.metadata.annotations?.[key];

/** A drain the MCO asked for and has not finished: desiredDrain `drain-…` differs from lastAppliedDrain. */
function drainRequested(node: KubeObject): boolean {
  const desired = annotationOf(node, DESIRED_DRAIN);
  return !!desired && desired.startsWith('drain-') && desired !== annotationOf(node, LAST_APPLIED_DRAIN);
}

/** When the node was cordoned: the unschedulable taint's timeAdded, when the API shows it. */
function cordonedAt(node: KubeObject): string | undefined {
  const taint = asArray(dig(node, 'spec', 'taints'))
    .map(asObject)
    .find((t) => t?.key === UNSCHEDULABLE_TAINT);
  const at = asString(taint?.timeAdded);
  return timeOf(at) !== undefined ? at : undefined;
}

/** Pods the drain still has to evict: on the node, not terminating, not DaemonSet or mirror pods. */
function podsLeft(node: KubeObject, pods: readonly KubeObject[]): KubeObject[] {
  return pods.filter(
    (pod) =>
      dig(pod, 'spec', 'nodeName') === node.metadata.name &&
      !pod.metadata.deletionTimestamp &&
      !(pod.metadata.ownerReferences ?? []).some((owner) => owner.kind === 'DaemonSet' || owner.kind === 'Node') &&
      !pod.metadata.annotations?.['kubernetes.io/config.mirror'],
  );
}

/** The PodDisruptionBudgets at their limit that select `pod`: each refuses its eviction. */
function blockingBudgets(pod: KubeObject, pdbs: readonly KubeObject[]): KubeObject[] {
  return pdbs.filter(
    (pdb) =>
      pdb.metadata.namespace === pod.metadata.namespace &&
      asNumber(dig(pdb, 'status', 'disruptionsAllowed')) === 0 &&
      matchesSelector(dig(pdb, 'spec', 'selector') as LabelSelector | undefined, pod.metadata.labels ?? {}),
  );
}

function drainFinding(node: KubeObject, snapshot: Snapshot, ctx: DetectorContext): Finding | undefined {
  if (!drainRequested(node) || dig(node, 'spec', 'unschedulable') !== true) return undefined;
  const since = cordonedAt(node);
  const reason = annotationOf(node, MCD_REASON) ?? '';
  const gaveUp = FAILED_DRAIN_RE.test(reason);
  const sinceMs = timeOf(since);
  if (!gaveUp && (sinceMs === undefined || ctx.now - sinceMs <= SLOW_DRAIN_MS)) return undefined;
  const ref = refOf(node);
  const name = node.metadata.name;
  const left = podsLeft(node, objectsOf(snapshot, 'pods'));
  const pdbs = objectsOf(snapshot, 'poddisruptionbudgets');
  const held = left.map((pod) => ({ pod, budgets: blockingBudgets(pod, pdbs) })).filter((h) => h.budgets.length > 0);
  const annotationField = (label: string, key: string): Evidence => ({
    kind: 'field',
    label,
    ref,
    path: `metadata.annotations["${key}"]`,
    value: annotationOf(node, key) ?? null,
  });
  const evidence: Evidence[] = [
    annotationField('Drain requested by the machine-config controller', DESIRED_DRAIN),
    annotationField('Last drain applied', LAST_APPLIED_DRAIN),
    annotationField('Machine config daemon state', MCD_STATE),
    { kind: 'field', label: 'Cordoned', ref, path: 'spec.unschedulable', value: true, ...(since ? { at: since } : {}) },
  ];
  if (reason) evidence.push(annotationField('Machine config daemon reason', MCD_REASON));
  for (const { pod, budgets } of held) {
    for (const pdb of budgets) {
      evidence.push({
        kind: 'field',
        ref: refOf(pdb),
        path: 'status.disruptionsAllowed',
        value: 0,
        label:
          `Eviction of ${pod.metadata.namespace}/${pod.metadata.name} refused by ` +
          `PodDisruptionBudget ${pdb.metadata.name}`,
      });
    }
  }
  const podNames = held.map(({ pod }) => `${pod.metadata.namespace}/${pod.metadata.name}`);
  const budgetRefs: ObjectRef[] = held.flatMap(({ budgets }) => budgets.map(refOf));
  return {
    id: findingId(ID, ref, 'slow-drain'),
    detector: ID,
    severity: 'warning',
    subject: ref,
    title: `Node ${name} is slow to drain`,
    summary: [
      `The machine-config controller cordoned ${name} to drain it${since ? ` at ${since}` : ''} and it is still` +
        ` Draining${gaveUp ? `; the daemon reports "${reason}"` : ` after more than ${SLOW_DRAIN_MS / 60_000} min`}.`,
      held.length
        ? `Evictions of ${podNames.join(', ')} are refused ("Cannot evict pod as it would violate the pod's disruption ` +
          'budget."): their PodDisruptionBudgets allow 0 disruptions, so the node cannot reboot into the new ' +
          'config and the pool waits.'
        : `${left.length} pod(s) are still on the node; none is held by a PodDisruptionBudget at its limit.`,
    ].join(' '),
    evidence,
    remediation: [
      {
        title: 'See what the drain is waiting for',
        command:
          'oc -n openshift-machine-config-operator logs deploy/machine-config-controller' +
          ` -c machine-config-controller | grep '${name}'`,
      },
      {
        title: 'List the pods still on the node',
        command: `oc get pods -A --field-selector spec.nodeName=${name} -o wide`,
      },
      ...budgetRefs.slice(0, 3).map((pdb) => ({
        title: `Let ${pdb.namespace}/${pdb.name} allow a disruption (scale its workload up, or relax the budget)`,
        command: `oc -n ${pdb.namespace} get pdb ${pdb.name} -o wide`,
        docUrl: DRAIN_DOC,
      })),
    ],
    ...(since ? { since } : {}),
  };
}

function detect(snapshot: Snapshot, ctx: DetectorContext): DetectorOutput {
  const findings = objectsOf(snapshot, 'nodes').flatMap((node) => drainFinding(node, snapshot, ctx) ?? []);
  const draining = objectsOf(snapshot, 'nodes').filter(drainRequested).length;
  return { findings, samples: { drainingNodes: draining, slowDrains: findings.length } };
}

/**
 * Slow drains. Emits `node-drain:Node//<name>:slow-drain` (warning) for a node the machine-config controller is
 * draining (desiredDrain `drain-…` not yet applied, cordoned) for longer than {@link SLOW_DRAIN_MS} since its
 * unschedulable taint was added, or whose daemon reports "failed to drain node"; evidence names the pods whose
 * evictions PodDisruptionBudgets at their limit refuse. Samples: `drainingNodes`, `slowDrains`.
 */
export const nodeDrain: Detector = {
  id: ID,
  title: 'Node drains',
  insight: { impactType: 'Update Speed', scopeType: 'WorkerPool', referenceUrl: DRAIN_DOC },
  needs: [{ resource: 'nodes' }, { resource: 'pods' }, { resource: 'poddisruptionbudgets' }],
  detect,
};
