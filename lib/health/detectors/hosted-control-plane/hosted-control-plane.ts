/**
 * A hosted control plane's health as its management cluster sees it: the HostedCluster conditions the
 * hypershift-operator bubbles up (Available, Degraded, ClusterVersionSucceeding — see CONDITIONS.md) turned into
 * findings that name the components behind them, with the ControlPlaneComponents that are not Available and the
 * NodePools that are not Ready as evidence. Needs no kubeconfig of the hosted cluster.
 */
import type { Condition, KubeObject } from '@/lib/k8s/types';
import type {
  Detector,
  DetectorOutput,
  Evidence,
  Finding,
  RemediationStep,
  Severity,
  Snapshot,
} from '@/lib/health/types';
import { findingId, objectsOf, timeOf } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';

const ID = 'hosted-control-plane' as const;
const CONDITIONS_DOC =
  'https://github.com/openshift/hypershift/blob/main/api/hypershift/v1beta1/hostedcluster_conditions.go';

/** Names in a HyperShift or CVO condition message, by the shapes those messages take. */
export function namedComponents(message: string | undefined): string[] {
  if (!message) return [];
  const names = new Set<string>();
  for (const m of message.matchAll(/([a-z0-9][a-z0-9-]*) (?:deployment|statefulset) has \d+ unavailable replicas/g))
    names.add(m[1]);
  const lists = [
    /Waiting for components to be available: ([^;\]]+)/.exec(message),
    /Cluster operators? ([a-z0-9, -]+?) (?:is|are) (?:not available|degraded)/.exec(message),
    /cluster operators are still updating: ([^;\]]+)/i.exec(message),
  ];
  for (const list of lists) for (const name of list?.[1].split(',') ?? []) if (name.trim()) names.add(name.trim());
  return [...names];
}

function conditionEvidence(object: KubeObject, condition: Condition): Evidence {
  return {
    kind: 'condition',
    label: `${condition.type}=${condition.status}${condition.reason ? ` (${condition.reason})` : ''}`,
    ref: refOf(object),
    path: `status.conditions[type=${condition.type}]`,
    value: condition.message ?? '',
    ...(condition.lastTransitionTime ? { at: condition.lastTransitionTime } : {}),
  };
}

/**
 * The earliest failing condition in the evidence: a component down since 09:02 dates the outage even when the
 * HostedCluster condition summarizing it changed later.
 */
function onsetOf(evidence: readonly Evidence[]): { since?: string } {
  const times = evidence.flatMap((e) => (e.at && timeOf(e.at) !== undefined ? [e.at] : []));
  return times.length ? { since: times.sort((a, b) => (timeOf(a) ?? 0) - (timeOf(b) ?? 0))[0] } : {};
}

function remediation(hc: KubeObject, hcpNamespace: string): RemediationStep[] {
  const { name, namespace } = hc.metadata;
  return [
    {
      title: 'Read the HostedCluster conditions',
      command: `oc get hostedcluster ${name} -n ${namespace} -o jsonpath='{range .status.conditions[*]}{.type}{"="}{.status}{" "}{.reason}{": "}{.message}{"\\n"}{end}'`,
    },
    {
      title: 'See which control-plane components are not available',
      command: `oc get controlplanecomponents -n ${hcpNamespace}`,
    },
    {
      title: 'Find the failing pods of the hosted control plane',
      command: `oc get pods -n ${hcpNamespace} | grep -v Running`,
    },
    { title: 'What each HostedCluster condition means (upstream API)', docUrl: CONDITIONS_DOC },
  ];
}

interface Rule {
  type: string;
  bad: Condition['status'];
  severity: Severity;
  title: (names: string[]) => string;
}

const RULES: Rule[] = [
  {
    type: 'Available',
    bad: 'False',
    severity: 'critical',
    title: (n) => `Hosted control plane not available${n.length ? `: ${n.join(', ')}` : ''}`,
  },
  {
    type: 'Degraded',
    bad: 'True',
    severity: 'warning',
    title: (n) => `Hosted control plane degraded${n.length ? `: ${n.join(', ')}` : ''}`,
  },
  {
    type: 'ClusterVersionSucceeding',
    bad: 'False',
    severity: 'warning',
    title: (n) => `Hosted cluster version not succeeding${n.length ? `: ${n.join(', ')} not available` : ''}`,
  },
];

function detect(snapshot: Snapshot): DetectorOutput {
  const hostedClusters = objectsOf(snapshot, 'hostedclusters');
  if (hostedClusters.length !== 1)
    return { findings: [], samples: { unavailableComponents: null, nodePoolsNotReady: null } };
  const hc = hostedClusters[0];
  const hcpNamespace = `${hc.metadata.namespace ?? ''}-${hc.metadata.name}`;
  const hcRef = refOf(hc);
  const unavailable = objectsOf(snapshot, 'controlplanecomponents', hcpNamespace).filter(
    (cpc) => conditionOf(cpc, 'Available')?.status === 'False',
  );
  const poolsNotReady = objectsOf(snapshot, 'nodepools').filter(
    (pool) => conditionOf(pool, 'Ready')?.status === 'False',
  );
  const findings: Finding[] = [];
  for (const rule of RULES) {
    const condition = conditionOf(hc, rule.type);
    if (condition?.status !== rule.bad) continue;
    const names = namedComponents(condition.message);
    const evidence: Evidence[] = [conditionEvidence(hc, condition)];
    if (names.length)
      evidence.push({
        kind: 'field',
        label: rule.type === 'ClusterVersionSucceeding' ? 'Cluster operators named' : 'Components named',
        ref: hcRef,
        path: `status.conditions[type=${rule.type}].message`,
        value: names,
      });
    if (rule.type !== 'ClusterVersionSucceeding') {
      for (const cpc of unavailable) evidence.push(conditionEvidence(cpc, conditionOf(cpc, 'Available')!));
    }
    findings.push({
      id: findingId(ID, hcRef, rule.type.toLowerCase()),
      detector: ID,
      severity: rule.severity,
      subject: hcRef,
      title: rule.title(names),
      summary:
        `HostedCluster ${hc.metadata.namespace}/${hc.metadata.name} reports ${rule.type}=${condition.status}` +
        `${condition.reason ? ` (${condition.reason})` : ''}${condition.message ? `: ${condition.message}` : ''}.` +
        (rule.type !== 'ClusterVersionSucceeding' && unavailable.length
          ? ` ${unavailable.length} ControlPlaneComponent(s) in ${hcpNamespace} are not Available: ${unavailable.map((c) => c.metadata.name).join(', ')}.`
          : ''),
      evidence,
      remediation: remediation(hc, hcpNamespace),
      ...onsetOf(evidence),
    });
  }
  for (const pool of poolsNotReady) {
    const ready = conditionOf(pool, 'Ready')!;
    findings.push({
      id: findingId(ID, refOf(pool), 'not-ready'),
      detector: ID,
      severity: 'warning',
      subject: refOf(pool),
      title: `NodePool ${pool.metadata.name} not ready`,
      summary: `NodePool ${pool.metadata.namespace}/${pool.metadata.name} reports Ready=False${ready.reason ? ` (${ready.reason})` : ''}${ready.message ? `: ${ready.message}` : ''}.`,
      evidence: [conditionEvidence(pool, ready)],
      remediation: [
        {
          title: 'Read the NodePool conditions',
          command: `oc get nodepool ${pool.metadata.name} -n ${pool.metadata.namespace} -o yaml`,
        },
      ],
      ...(ready.lastTransitionTime ? { since: ready.lastTransitionTime } : {}),
    });
  }
  return { findings, samples: { unavailableComponents: unavailable.length, nodePoolsNotReady: poolsNotReady.length } };
}

/**
 * Hosted control-plane health from the management cluster. On a snapshot holding exactly one HostedCluster, emits
 * on that HostedCluster `hosted-control-plane:HostedCluster/<ns>/<name>:available` (critical, Available=False),
 * `:degraded` (warning, Degraded=True) and `:clusterversionsucceeding` (warning, ClusterVersionSucceeding=False),
 * each naming the components or cluster operators from the condition message; and
 * `hosted-control-plane:NodePool/<ns>/<name>:not-ready` (warning) per NodePool with Ready=False.
 * Samples: `unavailableComponents`, `nodePoolsNotReady`.
 */
export const hostedControlPlane: Detector = {
  id: ID,
  title: 'Hosted control plane',
  insight: {
    impactType: 'API Availability',
    scopeType: 'ControlPlane',
    referenceUrl: 'https://hypershift-docs.netlify.app/reference/api/',
  },
  needs: [
    { resource: 'hostedclusters', optional: true },
    { resource: 'nodepools', optional: true },
    { resource: 'hostedcontrolplanes', optional: true },
    { resource: 'controlplanecomponents', optional: true },
    // A hosted cluster's own context: Infrastructure status.controlPlaneTopology External makes its role "hosted".
    { resource: 'infrastructures', name: 'cluster' },
  ],
  detect,
};
