import type { KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import { iso } from '../objects/time';

/** The disruption controller's view of one PodDisruptionBudget. */
export interface PdbFacts {
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
  expectedPods: number;
}

interface PdbSpec {
  minAvailable?: number | string;
  maxUnavailable?: number | string;
  selector?: { matchLabels?: Record<string, string> };
}

/** True when every matchLabels entry is on the pod. */
export function selects(selector: { matchLabels?: Record<string, string> } | undefined, pod: KubeObject): boolean {
  const labels = pod.metadata.labels ?? {};
  return Object.entries(selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
}

/** True when the pod is Ready and not terminating. */
export function isHealthy(pod: KubeObject): boolean {
  if (pod.metadata.deletionTimestamp) return false;
  const conditions = (pod.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((condition) => condition.type === 'Ready' && condition.status === 'True');
}

function scaled(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const percent = Number(value.replace('%', '')) / 100;
  return roundUp ? Math.ceil(percent * total) : Math.floor(percent * total);
}

/**
 * Computes a PDB's status the way the disruption controller does: expectedPods from the controllers' scale (here
 * `expectedPods`), desiredHealthy from minAvailable or expectedPods − maxUnavailable.
 */
export function computePdb(pdb: KubeObject, pods: KubeObject[], expectedPods: number): PdbFacts {
  const spec = (pdb.spec ?? {}) as PdbSpec;
  const selected = pods.filter(
    (pod) => pod.metadata.namespace === pdb.metadata.namespace && selects(spec.selector, pod),
  );
  const currentHealthy = selected.filter(isHealthy).length;
  let desiredHealthy: number;
  if (spec.minAvailable !== undefined) desiredHealthy = scaled(spec.minAvailable, expectedPods, true);
  else if (spec.maxUnavailable !== undefined)
    desiredHealthy = Math.max(0, expectedPods - scaled(spec.maxUnavailable, expectedPods, true));
  else desiredHealthy = expectedPods;
  return {
    currentHealthy,
    desiredHealthy,
    expectedPods,
    disruptionsAllowed: Math.max(0, currentHealthy - desiredHealthy),
  };
}

/** status of a PDB from its facts. */
export function pdbStatus(pdb: KubeObject, facts: PdbFacts, nowMs: number): Record<string, unknown> {
  const previous = (pdb.status as { conditions?: { status: string; lastTransitionTime: string }[] } | undefined)
    ?.conditions?.[0];
  const allowed = facts.disruptionsAllowed > 0;
  const status = allowed ? 'True' : 'False';
  return {
    conditions: [
      {
        type: 'DisruptionAllowed',
        status,
        reason: allowed ? 'SufficientPods' : 'InsufficientPods',
        message: '',
        observedGeneration: pdb.metadata.generation ?? 1,
        lastTransitionTime: previous && previous.status === status ? previous.lastTransitionTime : iso(nowMs),
      },
    ],
    currentHealthy: facts.currentHealthy,
    desiredHealthy: facts.desiredHealthy,
    disruptionsAllowed: facts.disruptionsAllowed,
    expectedPods: facts.expectedPods,
    observedGeneration: pdb.metadata.generation ?? 1,
  };
}

/**
 * Refreshes every PDB in `namespaces` (manager `kube-controller-manager`). `expectedFor` gives the scale of the
 * controller owning the selected pods.
 */
export function syncPdbs(
  context: ScenarioContext,
  namespaces: string[],
  expectedFor: (pdb: KubeObject, selected: KubeObject[]) => number,
): void {
  const client = context.as('kube-controller-manager');
  for (const namespace of namespaces) {
    const pods = context.client.list('pods', { namespace });
    for (const pdb of context.client.list('poddisruptionbudgets', { namespace })) {
      const selected = pods.filter((pod) => selects((pdb.spec as PdbSpec).selector, pod));
      const facts = computePdb(pdb, pods, expectedFor(pdb, selected));
      const status = pdbStatus(pdb, facts, context.clock.now());
      if (JSON.stringify(status) !== JSON.stringify(pdb.status))
        client.updateStatus('poddisruptionbudgets', { ...pdb, status });
    }
  }
}
