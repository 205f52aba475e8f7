/**
 * Pre-flight check 4 (failure mode C): the OLMv1 catalog Deployments must survive the rollback's rolling updates and
 * node drains: at least 2 ready replicas, a strategy that keeps one up, and no PodDisruptionBudget at its limit.
 * A PDB at its limit is a warning, as on the cluster page, until a node running one of its pods is cordoned: then a
 * drain is blocked now, and that blocks the plan.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { Evidence, RemediationStep } from '@/lib/health/types';
import { asNumber, dig, objectsOf } from '@/lib/health/shared/objects';
import { refOf } from '@/lib/k8s/refs';
import { pdbFinding } from '@/lib/health/shared/catalog-checks';
import { desiredReplicas, fenceposts, pdbsFor, podsOf } from '@/lib/health/shared/workload-math';
import { olmv1NamespaceActive, runsOlmv1 } from '@/lib/health/shared/olmv1-presence';
import { checkResult, type RollbackCheck } from './rollback-context';

/** The OLMv1 Deployments (OpenShift and upstream namespaces). */
export const CATALOG_DEPLOYMENTS = ['catalogd-controller-manager', 'operator-controller-controller-manager'] as const;

interface Problem {
  severity: 'warn' | 'block';
  text: string;
  remediation?: RemediationStep;
}

/** Nodes cordoned now (a drain is under way or stopped half-way) that run a pod of `deployment`. */
function cordonedNodesOf(deployment: KubeObject, pods: readonly KubeObject[], nodes: readonly KubeObject[]): string[] {
  const cordoned = new Set(nodes.filter((n) => dig(n, 'spec', 'unschedulable') === true).map((n) => n.metadata.name));
  return [...new Set(podsOf(deployment, pods).map((p) => String(dig(p, 'spec', 'nodeName') ?? '')))].filter((node) =>
    cordoned.has(node),
  );
}

function problemsOf(
  deployment: KubeObject,
  pdbs: readonly KubeObject[],
  drainingNodes: string[],
): { problems: Problem[]; evidence: Evidence[] } {
  const ref = refOf(deployment);
  const ns = deployment.metadata.namespace ?? '';
  const name = `${ns}/${deployment.metadata.name}`;
  const replicas = desiredReplicas(deployment);
  const ready = asNumber(dig(deployment, 'status', 'readyReplicas')) ?? 0;
  const f = fenceposts(deployment);
  const evidence: Evidence[] = [
    { kind: 'field', label: `${name} replicas`, ref, path: 'spec.replicas', value: replicas },
    { kind: 'field', label: `${name} ready`, ref, path: 'status.readyReplicas', value: ready },
    {
      kind: 'field',
      label: `${name} strategy`,
      ref,
      path: 'spec.strategy',
      value: `${f.strategy} maxSurge ${f.maxSurge} maxUnavailable ${f.maxUnavailable}`,
    },
  ];
  const scale = {
    title: `Run two replicas of ${name}`,
    command: `oc -n ${ns} scale deployment/${deployment.metadata.name} --replicas=2`,
  };
  const problems: Problem[] = [];
  if (replicas < 2)
    problems.push({
      severity: 'warn',
      text: `${name} runs ${replicas} replica: each rolling update of the rollback leaves no ready pod and olm goes Available=False.`,
      remediation: scale,
    });
  if (ready < replicas)
    problems.push({ severity: 'warn', text: `${name} has ${ready} of ${replicas} replicas ready.` });
  if (f.maxUnavailable >= replicas && replicas > 0)
    problems.push({
      severity: 'warn',
      text: `${name} strategy (${f.strategy}, maxUnavailable ${f.maxUnavailable}) can take every pod down at once.`,
    });
  for (const pdb of pdbsFor(deployment, pdbs)) {
    const finding = pdbFinding(deployment, pdb, ready);
    if (!finding) continue;
    evidence.push(...finding.evidence);
    const now = drainingNodes.length
      ? ` Node ${drainingNodes.join(', ')} is cordoned with its pod on it: a drain is blocked now.`
      : '';
    problems.push({
      severity: now ? 'block' : 'warn',
      text: `${finding.title}: ${finding.summary}${now}`,
      remediation: finding.remediation.at(-1),
    });
  }
  return { problems, evidence };
}

/**
 * Check `catalog`, for the OLMv1 the cluster runs (its release's, or an upstream install). A PDB at its limit
 * blocks while a node with its pod is cordoned, else warns (the cluster page's severity); single replica, not ready,
 * unsafe strategy → warn.
 */
export const checkCatalog: RollbackCheck = (ctx) => {
  const named = objectsOf(ctx.snapshot, 'deployments').filter((d) =>
    (CATALOG_DEPLOYMENTS as readonly string[]).includes(d.metadata.name),
  );
  const deployments = named.filter((d) => olmv1NamespaceActive(ctx.snapshot, d.metadata.namespace));
  if ((named.length > 0 && deployments.length === 0) || (deployments.length === 0 && !runsOlmv1(ctx.snapshot))) {
    return checkResult(
      'catalog',
      'pass',
      'No OLMv1 on this release',
      'OLMv1 runs from 4.18 (4.14–4.17 only with TechPreviewNoUpgrade): no catalogd or operator-controller to drain ' +
        'around.',
    );
  }
  if (deployments.length === 0) {
    return checkResult(
      'catalog',
      'pass',
      'No OLMv1 catalog Deployments',
      'Neither catalogd nor operator-controller runs on this cluster (or is watched): nothing to drain around.',
    );
  }
  const pdbs = objectsOf(ctx.snapshot, 'poddisruptionbudgets');
  const pods = objectsOf(ctx.snapshot, 'pods');
  const nodes = objectsOf(ctx.snapshot, 'nodes');
  const results = deployments.map((d) => problemsOf(d, pdbs, cordonedNodesOf(d, pods, nodes)));
  const problems = results.flatMap((r) => r.problems);
  const evidence = results.flatMap((r) => r.evidence);
  const remediation = problems
    .flatMap((p) => (p.remediation ? [p.remediation] : []))
    .filter((step, i, all) => all.findIndex((s) => s.command === step.command) === i);
  if (problems.length === 0) {
    return checkResult(
      'catalog',
      'pass',
      'Catalog Deployments survive rolling updates and drains',
      `${deployments.map((d) => `${d.metadata.namespace}/${d.metadata.name}`).join(' and ')}: at least 2 ready replicas, a safe strategy, PodDisruptionBudgets below their limit.`,
      evidence,
    );
  }
  const status = problems.some((p) => p.severity === 'block') ? 'block' : 'warn';
  return checkResult(
    'catalog',
    status,
    status === 'block'
      ? 'A node drain is blocked now on a catalog PodDisruptionBudget'
      : 'Catalog availability gaps and drain risks during the rollback',
    problems.map((p) => p.text).join(' '),
    evidence,
    remediation,
  );
};
