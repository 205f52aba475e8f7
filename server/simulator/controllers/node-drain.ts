import type { KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import { SECOND, iso } from '../objects/time';
import { computePdb, selects } from './disruption';

/** Result of one eviction attempt. */
export type EvictionResult = { evicted: true } | { evicted: false; reason: string };

/** The message the API server returns when an eviction would violate a PDB (HTTP 429). */
export const PDB_VIOLATION_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

/**
 * The eviction subresource: refused (429) when a PDB selecting the pod has no disruptions allowed, otherwise the pod
 * starts terminating. `expectedFor` gives the scale behind a PDB's pods.
 */
export function evictPod(
  context: ScenarioContext,
  pod: KubeObject,
  manager: string,
  expectedFor: (pdb: KubeObject) => number,
): EvictionResult {
  const namespace = pod.metadata.namespace ?? '';
  const budgets = context.client
    .list('poddisruptionbudgets', { namespace })
    .filter((pdb) => selects((pdb.spec as { selector?: { matchLabels?: Record<string, string> } }).selector, pod));
  const pods = budgets.length ? context.client.list('pods', { namespace }) : [];
  for (const pdb of budgets) {
    const facts = computePdb(pdb, pods, expectedFor(pdb));
    if (facts.disruptionsAllowed <= 0) return { evicted: false, reason: PDB_VIOLATION_MESSAGE };
  }
  const now = context.clock.now();
  context.as(manager).update('pods', {
    ...pod,
    metadata: { ...pod.metadata, deletionTimestamp: iso(now), deletionGracePeriodSeconds: 30 },
  });
  return { evicted: true };
}

/** Sets or clears spec.unschedulable and the matching taint (cordon / uncordon). */
export function setSchedulable(
  context: ScenarioContext,
  nodeName: string,
  schedulable: boolean,
  manager: string,
): void {
  const node = context.client.get('nodes', nodeName);
  if (!node) return;
  const spec = { ...((node.spec ?? {}) as Record<string, unknown>) };
  const taints = ((spec.taints ?? []) as { key: string }[]).filter(
    (taint) => taint.key !== 'node.kubernetes.io/unschedulable',
  );
  if (schedulable) {
    delete spec.unschedulable;
  } else {
    spec.unschedulable = true;
    taints.push({
      key: 'node.kubernetes.io/unschedulable',
      effect: 'NoSchedule',
      timeAdded: iso(context.clock.now()),
    } as { key: string });
  }
  if (taints.length) spec.taints = taints;
  else delete spec.taints;
  context.as(manager).update('nodes', { ...node, spec });
}

/** Options of a drain. */
export interface DrainOptions {
  manager: string;
  retryMs?: number;
  /** Scale of the workload behind a PDB (for expectedPods). */
  expectedFor: (pdb: KubeObject) => number;
  /** Removes a pod once terminating pods are gone, for pods no deployment controller manages. */
  onEvicted?: (pod: KubeObject) => void;
  /** Each refused eviction (for logs). */
  onBlocked?: (pod: KubeObject, reason: string) => void;
  onDrained?: () => void;
  /** Pods the drain leaves alone besides DaemonSet pods (e.g. mirror or host-network control-plane pods). */
  skip?: (pod: KubeObject) => boolean;
}

/**
 * `oc adm drain` / the MCO drain controller: cordons the node, then evicts every non-DaemonSet pod, retrying
 * refused evictions until none is left. Returns a function that cancels the drain.
 */
export function drainNode(context: ScenarioContext, nodeName: string, options: DrainOptions): () => void {
  setSchedulable(context, nodeName, false, options.manager);
  let cancel: () => void = () => undefined;
  const attempt = () => {
    const onNode = () =>
      context.client
        .list('pods', { fieldSelector: `spec.nodeName=${nodeName}` })
        .filter((pod) => !(pod.metadata.ownerReferences ?? []).some((ref) => ref.kind === 'DaemonSet'))
        .filter((pod) => !options.skip?.(pod));
    const pods = onNode();
    const remaining = pods.filter((pod) => !pod.metadata.deletionTimestamp);
    let evicted = 0;
    for (const pod of remaining) {
      const result = evictPod(context, pod, options.manager, options.expectedFor);
      if (result.evicted) {
        evicted++;
        options.onEvicted?.(pod);
      } else options.onBlocked?.(pod, result.reason);
    }
    const left = evicted > 0 ? onNode() : pods;
    if (left.length === 0) {
      cancel();
      options.onDrained?.();
    }
  };
  cancel = context.clock.setInterval(attempt, options.retryMs ?? 5 * SECOND);
  attempt();
  return () => cancel();
}
