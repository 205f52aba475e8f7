/**
 * Failure mode C — non-ready catalog replicas. OLMv1's catalogd and operator-controller ran with one replica: every
 * rollout opens a window with no ready pod (`olm` Available=False), a PDB with minAvailable 1 deadlocks node drains,
 * and with 2 replicas the non-leader catalogd pod answers 404.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type {
  Detector,
  DetectorContext,
  DetectorOutput,
  Evidence,
  Finding,
  ResourceNeed,
  Snapshot,
} from '@/lib/health/types';
import { asNumber, dig, findingId, findObject, objectsOf } from '@/lib/health/shared/objects';
import { refOf } from '@/lib/k8s/refs';
import {
  desiredReplicas,
  fenceposts,
  isPodReady,
  leaseHolder,
  pdbsFor,
  podsOf,
  staticDisruptionsAllowed,
} from '@/lib/health/shared/workload-math';
import { leaseFinding, olmAvailabilityFinding, pdbFinding, probeFinding } from '@/lib/health/shared/catalog-checks';
import { UPSTREAM_OLMV1_NAMESPACE, olmv1NamespaceActive, runsOlmv1 } from '@/lib/health/shared/olmv1-presence';

const ID = 'catalog-replicas' as const;
const OLM_DOC =
  'https://docs.redhat.com/en/documentation/openshift_container_platform/4.19/html/extensions/architecture';

/** An OLMv1 Deployment the detector watches: its name, the namespaces it lives in, and its leader Lease. */
export interface CatalogDeployment {
  name: string;
  namespaces: readonly string[];
  lease?: string;
}

/**
 * The OLMv1 Deployments (OpenShift namespaces first, then upstream's): a refused watch in the upstream namespace is
 * not applicable on OpenShift (lib/health/source-applicability.ts).
 */
export const CATALOG_DEPLOYMENTS: readonly CatalogDeployment[] = [
  {
    name: 'catalogd-controller-manager',
    namespaces: ['openshift-catalogd', UPSTREAM_OLMV1_NAMESPACE],
    lease: 'catalogd-operator-lock',
  },
  {
    name: 'operator-controller-controller-manager',
    namespaces: ['openshift-operator-controller', UPSTREAM_OLMV1_NAMESPACE],
  },
];

const NAMESPACES = [...new Set(CATALOG_DEPLOYMENTS.flatMap((d) => d.namespaces))];

interface Observed {
  deployment: KubeObject;
  target: CatalogDeployment;
  desired: number;
  ready: number;
  available: number;
  pods: KubeObject[];
}

function observe(snapshot: Snapshot): Observed[] {
  const active = (ns: string): boolean => olmv1NamespaceActive(snapshot, ns);
  return CATALOG_DEPLOYMENTS.flatMap((target) =>
    target.namespaces.filter(active).flatMap((ns) => {
      const deployment = findObject(snapshot, 'deployments', target.name, ns);
      if (!deployment) return [];
      return [
        {
          deployment,
          target,
          desired: desiredReplicas(deployment),
          ready: asNumber(dig(deployment, 'status', 'readyReplicas')) ?? 0,
          available: asNumber(dig(deployment, 'status', 'availableReplicas')) ?? 0,
          pods: podsOf(deployment, objectsOf(snapshot, 'pods', ns)),
        },
      ];
    }),
  );
}

function replicaEvidence(o: Observed): Evidence[] {
  const ref = refOf(o.deployment);
  return [
    { kind: 'field', label: 'Desired replicas', ref, path: 'spec.replicas', value: o.desired },
    { kind: 'field', label: 'Ready replicas', ref, path: 'status.readyReplicas', value: o.ready },
    { kind: 'field', label: 'Available replicas', ref, path: 'status.availableReplicas', value: o.available },
  ];
}

function deploymentFindings(o: Observed): Finding[] {
  const ref = refOf(o.deployment);
  const ns = o.deployment.metadata.namespace ?? '';
  const name = o.deployment.metadata.name;
  const scale = {
    title: 'Run two replicas',
    command: `oc -n ${ns} scale deployment/${name} --replicas=2`,
    docUrl: OLM_DOC,
  };
  const findings: Finding[] = [];
  if (o.ready < o.desired) {
    findings.push({
      id: findingId(ID, ref, 'not-ready'),
      detector: ID,
      severity: o.ready === 0 ? 'critical' : 'warning',
      subject: ref,
      title: o.ready === 0 ? `${name}: no replica ready` : `${name}: replicas not ready`,
      summary:
        o.ready === 0
          ? `No ${name} pod is ready: ${name.startsWith('catalogd') ? 'catalog content is not served' : 'ClusterExtensions are not reconciled'} and the olm ClusterOperator reports Available=False.`
          : `${o.desired - o.ready} of ${o.desired} ${name} replicas are not ready.`,
      evidence: replicaEvidence(o),
      remediation: [
        {
          title: 'See the pods and why they are not ready',
          command: `oc -n ${ns} get pods -o wide && oc -n ${ns} describe deployment/${name}`,
        },
        { title: 'Read the manager log', command: `oc -n ${ns} logs deployment/${name} -c manager --tail=100` },
      ],
    });
  }
  if (o.desired < 2) {
    findings.push({
      id: findingId(ID, ref, 'single-replica'),
      detector: ID,
      severity: 'warning',
      subject: ref,
      title: `${name} runs ${o.desired} replica: a rolling update will make olm Available=False`,
      summary:
        `With spec.replicas ${o.desired}, every rollout (an update, a node drain) leaves a window with no ready ${name} ` +
        'pod, and the olm ClusterOperator goes Available=False, which the ClusterOperator contract forbids during a normal update.',
      evidence: replicaEvidence(o).slice(0, 1),
      remediation: [scale],
    });
  }
  const f = fenceposts(o.deployment);
  if (o.desired > 0 && f.maxUnavailable >= o.desired) {
    findings.push({
      id: findingId(ID, ref, 'rollout-unavailable'),
      detector: ID,
      severity: 'warning',
      subject: ref,
      title: `${name}'s update strategy may take every replica down`,
      summary:
        `Strategy ${f.strategy} resolves to maxUnavailable ${f.maxUnavailable} (maxSurge ${f.maxSurge}) for ${o.desired} ` +
        'replica(s): the deployment controller may stop all pods before a new one is ready.',
      evidence: [
        {
          kind: 'field',
          label: 'Update strategy',
          ref,
          path: 'spec.strategy',
          value: `${f.strategy} maxSurge=${f.maxSurge} maxUnavailable=${f.maxUnavailable}`,
        },
      ],
      remediation: [
        {
          title: 'Never take a pod down before its replacement is ready',
          command: `oc -n ${ns} patch deployment/${name} --type=merge -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1,"maxUnavailable":0}}}}'`,
        },
        scale,
      ],
    });
  }
  return findings;
}

function detect(snapshot: Snapshot, ctx: DetectorContext): DetectorOutput {
  const findings: Finding[] = [];
  const samples: Record<string, number | null> = {
    desired: null,
    ready: null,
    available: null,
    pdbDisruptionsAllowed: null,
    operatorControllerDesired: null,
    operatorControllerReady: null,
    operatorControllerAvailable: null,
  };
  const observed = observe(snapshot);
  for (const o of observed) {
    findings.push(...deploymentFindings(o));
    const ns = o.deployment.metadata.namespace ?? '';
    const pdbs = pdbsFor(o.deployment, objectsOf(snapshot, 'poddisruptionbudgets', ns));
    const readyPods = o.pods.filter(isPodReady).length;
    for (const pdb of pdbs) {
      const f = pdbFinding(o.deployment, pdb, Math.max(o.ready, readyPods));
      if (f) findings.push(f);
    }
    const lease = o.target.lease ? findObject(snapshot, 'leases', o.target.lease, ns) : undefined;
    const leaseIssue = leaseFinding(lease, o.pods, ctx);
    if (leaseIssue) findings.push(leaseIssue);
    const probes = probeFinding(o.deployment, o.pods, snapshot, lease ? leaseHolder(lease, ctx.now)?.pod : undefined);
    if (probes) findings.push(probes);
    const pdbAllowed = pdbs.length
      ? Math.min(
          ...pdbs.map(
            (p) => asNumber(dig(p, 'status', 'disruptionsAllowed')) ?? staticDisruptionsAllowed(p, o.desired) ?? 0,
          ),
        )
      : null;
    const prefix = o.target.name.startsWith('catalogd') ? '' : 'operatorController';
    const key = (k: string): string => (prefix ? `${prefix}${k[0].toUpperCase()}${k.slice(1)}` : k);
    if (samples[key('desired')] === null) {
      samples[key('desired')] = o.desired;
      samples[key('ready')] = o.ready;
      samples[key('available')] = o.available;
      if (!prefix) samples.pdbDisruptionsAllowed = pdbAllowed;
    }
  }
  // The olm ClusterOperator is the release's OLMv1: on a release without it, it is not a finding.
  if (!runsOlmv1(snapshot)) return { findings, samples: { ...samples, olmUnavailableTransitions: null } };
  const olm = olmAvailabilityFinding(snapshot);
  if (olm.finding) findings.push(olm.finding);
  samples.olmUnavailableTransitions = olm.count;
  return { findings, samples };
}

const needs: ResourceNeed[] = [
  ...NAMESPACES.flatMap((namespace): ResourceNeed[] => [
    { resource: 'deployments', namespace },
    { resource: 'pods', namespace },
    { resource: 'poddisruptionbudgets', namespace },
  ]),
  { resource: 'leases', namespace: 'openshift-catalogd' },
  { resource: 'leases', namespace: 'olmv1-system' },
  { resource: 'clusteroperators', name: 'olm' },
  { resource: 'clusterversions', name: 'version' },
  { resource: 'featuregates', name: 'cluster' },
];

/**
 * Detector C, for the OLMv1 the cluster runs: its release's (4.18+, or 4.14–4.17 with TechPreviewNoUpgrade; any
 * release without a ClusterVersion) and an upstream install in `olmv1-system` on any release. Emits, per OLMv1
 * Deployment found (`catalogd-controller-manager`, `operator-controller-controller-manager`
 * in their OpenShift or upstream namespace):
 * - `catalog-replicas:Deployment/<ns>/<name>:not-ready` — warning, critical when 0 ready;
 * - `…:single-replica` (warning) — spec.replicas < 2; `…:rollout-unavailable` (warning) — the strategy may take all down;
 * - `…:probes` — catalog probes not answering 200 (warning; critical when every probed pod fails);
 * - `catalog-replicas:PodDisruptionBudget/<ns>/<name>:drain-blocked` (warning);
 * - `catalog-replicas:Lease/<ns>/catalogd-operator-lock:holder-not-ready` (warning);
 * - `catalog-replicas:ClusterOperator//olm:unavailable` — warning per past Available=False, critical while False.
 * Samples (catalogd): `desired`, `ready`, `available`, `pdbDisruptionsAllowed` (min over its PDBs, from status or
 * spec); `operatorControllerDesired|Ready|Available`; `olmUnavailableTransitions`. `null` when not observed.
 */
export const catalogReplicas: Detector = {
  id: ID,
  title: 'OLMv1 catalog replicas',
  insight: {
    impactType: 'API Availability',
    scopeType: 'Cluster',
    referenceUrl: 'https://docs.openshift.com/container-platform/latest/extensions/catalogs/managing-catalogs.html',
  }, // catalogs that serve nothing break installs; a PDB at its limit stalls node drains
  needs,
  detect,
};
