/**
 * The parts of failure mode C beyond replica counts: PodDisruptionBudgets that block drains, the catalogd leader
 * Lease, per-pod catalog probe results and `olm` ClusterOperator Available=False transitions.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { DetectorContext, Evidence, Finding, ProbeResult, Snapshot } from '@/lib/health/types';
import { asNumber, dig, findingId, findObject, timeOf } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import { desiredReplicas, isPodReady, leaseHolder, staticDisruptionsAllowed } from '@/lib/health/shared/workload-math';

const ID = 'catalog-replicas' as const;

/** Drain-blocking PDB: `disruptionsAllowed` 0 while the Deployment is healthy, or a spec that can never allow one. */
export function pdbFinding(deployment: KubeObject, pdb: KubeObject, ready: number): Finding | undefined {
  const replicas = desiredReplicas(deployment);
  const allowed = asNumber(dig(pdb, 'status', 'disruptionsAllowed'));
  const staticAllowed = staticDisruptionsAllowed(pdb, replicas);
  const atLimitWhileHealthy = allowed === 0 && ready >= replicas && replicas > 0;
  if (!atLimitWhileHealthy && staticAllowed !== 0) return undefined;
  const ref = refOf(pdb);
  const ns = pdb.metadata.namespace ?? '';
  const bound =
    dig(pdb, 'spec', 'minAvailable') !== undefined
      ? `minAvailable ${String(dig(pdb, 'spec', 'minAvailable'))}`
      : `maxUnavailable ${String(dig(pdb, 'spec', 'maxUnavailable'))}`;
  const evidence: Evidence[] = [
    {
      kind: 'field',
      label: 'PDB bound',
      ref,
      path: dig(pdb, 'spec', 'minAvailable') !== undefined ? 'spec.minAvailable' : 'spec.maxUnavailable',
      value: String(dig(pdb, 'spec', 'minAvailable') ?? dig(pdb, 'spec', 'maxUnavailable')),
    },
    { kind: 'field', label: 'Deployment replicas', ref: refOf(deployment), path: 'spec.replicas', value: replicas },
  ];
  if (allowed !== undefined)
    evidence.push({
      kind: 'field',
      label: 'Disruptions allowed',
      ref,
      path: 'status.disruptionsAllowed',
      value: allowed,
    });
  return {
    id: findingId(ID, ref, 'drain-blocked'),
    detector: ID,
    severity: 'warning',
    subject: ref,
    title: `Node drains will block on ${ns}/${pdb.metadata.name}`,
    summary:
      `PodDisruptionBudget ${pdb.metadata.name} (${bound}) selects the ${replicas}-replica Deployment ` +
      `${deployment.metadata.name}, so it allows ${allowed ?? staticAllowed} disruption(s): evicting its pod fails and ` +
      '`oc adm drain` of that node waits forever (cf. the PodDisruptionBudgetAtLimit alert). Run at least 2 replicas.',
    evidence,
    remediation: [
      { title: 'Check the budget', command: `oc -n ${ns} get pdb ${pdb.metadata.name} -o wide` },
      {
        title: 'Add a replica so one pod can be evicted',
        command: `oc -n ${ns} scale deployment/${deployment.metadata.name} --replicas=2`,
      },
    ],
  };
}

/** Leader Lease held by a pod that is gone or not ready (or expired): catalog requests fail until re-election. */
export function leaseFinding(
  lease: KubeObject | undefined,
  pods: readonly KubeObject[],
  ctx: DetectorContext,
): Finding | undefined {
  if (!lease || pods.length === 0) return undefined;
  const holder = leaseHolder(lease, ctx.now);
  const ref = refOf(lease);
  const ns = lease.metadata.namespace ?? '';
  const holderPod = holder ? pods.find((p) => p.metadata.name === holder.pod) : undefined;
  const holderReady = holderPod ? isPodReady(holderPod) : false;
  if (holder && holderReady && !holder.expired) return undefined;
  const readyPods = pods.filter(isPodReady).map((p) => p.metadata.name);
  const problem = !holder
    ? 'nobody holds it'
    : !holderPod
      ? `its holder ${holder.pod} no longer exists`
      : !holderReady
        ? `its holder ${holder.pod} is not ready`
        : `its holder ${holder.pod} stopped renewing it`;
  return {
    id: findingId(ID, ref, 'holder-not-ready'),
    detector: ID,
    severity: 'warning',
    subject: ref,
    title: `catalogd leader Lease: ${problem}`,
    summary:
      `Lease ${lease.metadata.name}: ${problem}${holder?.expired ? ' (expired)' : ''}. Only the leader serves the ` +
      `catalog cache; ready pods (${readyPods.join(', ') || 'none'}) answer 404 until one of them takes the lease.`,
    evidence: [
      { kind: 'field', label: 'Lease holder', ref, path: 'spec.holderIdentity', value: holder?.identity ?? null },
      ...(holder?.renewTime
        ? [{ kind: 'field' as const, label: 'Last renewal', ref, path: 'spec.renewTime', value: holder.renewTime }]
        : []),
      { kind: 'field', label: 'Ready pods', value: readyPods },
    ],
    remediation: [
      {
        title: 'Inspect the lease and the pods',
        command: `oc -n ${ns} get lease ${lease.metadata.name} -o yaml && oc -n ${ns} get pods -o wide`,
      },
    ],
    ...(holder?.renewTime ? { since: holder.renewTime } : {}),
  };
}

function latestProbes(probes: readonly ProbeResult[], pods: readonly KubeObject[]): ProbeResult[] {
  const names = new Set(pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`));
  const latest = new Map<string, ProbeResult>();
  for (const p of probes) {
    const key = `${p.ref.namespace}/${p.ref.name}`;
    if (!names.has(key)) continue;
    const prev = latest.get(`${key} ${p.url}`);
    if (!prev || (timeOf(p.at) ?? 0) >= (timeOf(prev.at) ?? 0)) latest.set(`${key} ${p.url}`, p);
  }
  return [...latest.values()].sort((a, b) => a.ref.name.localeCompare(b.ref.name) || a.url.localeCompare(b.url));
}

/** `oc get --raw` through the pod proxy for a probe (catalogd serves catalogs over https on :8443). */
function proxyCommand(r: ProbeResult): string {
  if (r.url.startsWith('/api/')) return `oc get --raw "${r.url}" | head -c 300`;
  let path = r.url;
  try {
    path = new URL(r.url).pathname;
  } catch {
    // Already a path relative to the pod.
  }
  return `oc get --raw "/api/v1/namespaces/${r.ref.namespace}/pods/https:${r.ref.name}:8443/proxy${path.startsWith('/') ? '' : '/'}${path}" | head -c 300`;
}

/** Catalog probes (`/catalogs/<name>/api/v1/all` per pod) that did not answer 200: non-leaders serve an empty cache. */
export function probeFinding(
  deployment: KubeObject,
  pods: readonly KubeObject[],
  snapshot: Snapshot,
  leaderPod: string | undefined,
): Finding | undefined {
  const results = latestProbes(snapshot.probes, pods);
  const failing = results.filter((r) => r.status !== 200);
  if (failing.length === 0) return undefined;
  const ref = refOf(deployment);
  const all = failing.length === results.length;
  const describe = (r: ProbeResult): string =>
    `${r.status ?? r.error ?? 'no answer'}${r.ref.name === leaderPod ? ' (leader)' : leaderPod ? ' (not leader)' : ''}`;
  return {
    id: findingId(ID, ref, 'probes'),
    detector: ID,
    severity: all ? 'critical' : 'warning',
    subject: ref,
    title: all ? 'No catalogd pod serves the catalog' : 'Some catalogd pods do not serve the catalog',
    summary:
      `${failing.map((r) => `${r.ref.name}: ${describe(r)}`).join('; ')}. Pods that are not the leader of ` +
      'catalogd-operator-lock serve an empty cache and answer 404, so requests the Service sends to them fail.',
    evidence: results.map((r) => ({
      kind: 'field' as const,
      label: `GET ${r.url}`,
      ref: r.ref,
      path: 'probe.status',
      value: describe(r),
      at: r.at,
    })),
    remediation: [
      { title: 'Probe the failing pod through the API server proxy', command: proxyCommand(failing[0]) },
      {
        title: 'See which pod holds the leader lease',
        command: `oc -n ${deployment.metadata.namespace} get lease catalogd-operator-lock -o jsonpath='{.spec.holderIdentity}'`,
      },
    ],
    since: failing.map((r) => r.at).sort()[0],
  };
}

/** `olm` ClusterOperator Available=False now or in the retained transition history. */
export function olmAvailabilityFinding(snapshot: Snapshot): { finding?: Finding; count: number } {
  const drops = snapshot.transitions
    .filter(
      (t) => t.ref.kind === 'ClusterOperator' && t.ref.name === 'olm' && t.type === 'Available' && t.status === 'False',
    )
    .sort((a, b) => (timeOf(a.at) ?? 0) - (timeOf(b.at) ?? 0));
  const co = findObject(snapshot, 'clusteroperators', 'olm');
  const nowUnavailable = conditionOf(co, 'Available')?.status === 'False';
  if (drops.length === 0 && !nowUnavailable) return { count: 0 };
  const ref = co ? refOf(co) : { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', name: 'olm' };
  const current = conditionOf(co, 'Available');
  return {
    count: drops.length,
    finding: {
      id: findingId(ID, ref, 'unavailable'),
      detector: ID,
      severity: nowUnavailable ? 'critical' : 'warning',
      subject: ref,
      title: nowUnavailable ? 'olm ClusterOperator is Available=False' : 'olm went Available=False during rollouts',
      summary:
        'The ClusterOperator contract forbids Available=False during a normal update; with a single catalogd or ' +
        `operator-controller replica every rollout opens that window. Observed ${drops.length} Available=False transition(s)` +
        `${nowUnavailable ? `; unavailable now: ${current?.message ?? current?.reason ?? ''}` : ''}.`,
      evidence: drops.slice(-10).map((t) => ({
        kind: 'condition' as const,
        label: `Available=${t.status}${t.reason ? ` (${t.reason})` : ''}`,
        ref,
        path: 'status.conditions[type=Available]',
        value: t.message ?? null,
        at: t.at,
      })),
      remediation: [{ title: 'See the olm conditions', command: 'oc get clusteroperator olm -o yaml' }],
      ...(drops.length ? { since: (nowUnavailable ? drops.at(-1) : drops[0])?.at } : {}),
    },
  };
}
