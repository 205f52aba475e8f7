/**
 * Failure mode A — FeatureGate version gap. `featuregates.config.openshift.io/cluster` `status.featureGates[]` must
 * hold an entry for every release version a running component is at; a component whose version is missing fails
 * to start (`missing desired version "X"`). HyperShift once replaced the list with only the incoming version.
 */
import type { ObjectRef } from '@/lib/k8s/types';
import type { Detector, Evidence, Finding, RemediationStep, Snapshot } from '@/lib/health/types';
import { compareVersions } from '@/lib/k8s/version';
import { findingId } from '@/lib/health/shared/objects';
import {
  earliestCrash,
  featureGateCrashes,
  type FeatureGateCrash,
} from '@/lib/health/detectors/featuregate-coverage/featuregate-crashes';
import {
  HCP_FEATURE_GATE_CONFIGMAP,
  HCP_FEATURE_GATE_KEY,
  hostedCoverage,
  standaloneCoverage,
  type CoverageInput,
} from '@/lib/health/detectors/featuregate-coverage/featuregate-sources';

const ID = 'featuregate-coverage' as const;
const FEATUREGATE_DOC =
  'https://docs.redhat.com/en/documentation/openshift_container_platform/4.14/html/config_apis/featuregate-config-openshift-io-v1';

const REMEDIATION: RemediationStep[] = [
  {
    title: 'List the versions the FeatureGate status covers',
    command: `oc get featuregate cluster -o jsonpath='{range .status.featureGates[*]}{.version}{"\\n"}{end}'`,
  },
  {
    title: 'Compare with the ClusterVersion history',
    command: `oc get clusterversion version -o jsonpath='{range .status.history[*]}{.version}{" "}{.state}{"\\n"}{end}'`,
  },
  { title: 'See which ClusterOperators still run the missing version', command: 'oc get clusteroperators' },
  { title: 'Find consumers that already crash-loop', command: 'oc get pods -A | grep CrashLoopBackOff' },
  {
    title:
      'On HyperShift the control-plane operator writes this list: move the hosted cluster to a HyperShift build that ' +
      'keeps history versions, or finish the update so no component needs the missing version',
    docUrl: FEATUREGATE_DOC,
  },
];

/** The same checks from the management cluster: the rendered FeatureGate in the HCP namespace. */
function hostedRemediation(input: CoverageInput): RemediationStep[] {
  const ns = input.subject.namespace ?? '';
  const hc = input.versionRef;
  return [
    {
      title: 'List the versions the rendered FeatureGate of the hosted control plane covers',
      command: `oc get configmap ${HCP_FEATURE_GATE_CONFIGMAP} -n ${ns} -o jsonpath='{.data.${HCP_FEATURE_GATE_KEY.replace('.', '\\.')}}' | grep 'version:'`,
    },
    {
      title: 'Compare with the HostedCluster version history',
      command: `oc get hostedcluster ${hc?.name ?? ''} -n ${hc?.namespace ?? ''} -o jsonpath='{range .status.version.history[*]}{.version}{" "}{.state}{"\\n"}{end}'`,
    },
    {
      title: 'See which control-plane components still run the missing version',
      command: `oc get controlplanecomponents -n ${ns}`,
    },
    { title: 'Find HCP operators that already crash-loop', command: `oc get pods -n ${ns} | grep CrashLoopBackOff` },
    REMEDIATION[4],
  ];
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function missingFinding(
  version: string,
  input: CoverageInput,
  crashes: FeatureGateCrash[],
  outgoing: boolean,
): Finding {
  const { subject: fgRef, versionRef: cvRef, present, required: req } = input;
  const operators = req.operators.get(version) ?? [];
  const historyEntry = req.history.find((h) => h.version === version);
  const evidence: Evidence[] = [
    { kind: 'field', label: 'FeatureGate status versions', ref: fgRef, path: input.listPath, value: present },
  ];
  if (cvRef && req.desired) {
    evidence.push({
      kind: 'field',
      label: 'Desired version',
      ref: cvRef,
      path: `${input.versionPath}.desired.version`,
      value: req.desired,
    });
  }
  if (cvRef && req.history.length) {
    evidence.push({
      kind: 'field',
      label: `${cvRef.kind} history (back to the first Completed)`,
      ref: cvRef,
      path: `${input.versionPath}.history[].version`,
      value: req.history.map((h) => `${h.version} (${h.state || 'unknown'})`),
    });
  }
  if (operators.length) {
    evidence.push({
      kind: 'field',
      label: `${input.hosted ? 'Control-plane components' : 'ClusterOperators'} at ${version}`,
      path: input.hosted ? 'status.version' : 'status.versions[name=operator].version',
      value: operators,
    });
  }
  for (const c of crashes) {
    const restarts = c.restartCount !== undefined ? ` (${plural(c.restartCount, 'restart')})` : '';
    evidence.push({
      kind: 'log',
      label: `${c.crashLooping ? 'Crash-looping' : 'Failed'} consumer${restarts}`,
      ref: c.pod,
      container: c.container,
      lines: [c.line],
      ...(c.at ? { at: c.at } : {}),
    });
  }
  const looping = crashes.filter((c) => c.crashLooping).length;
  const who = [
    operators.length ? `${plural(operators.length, input.componentNoun)} (${operators.join(', ')})` : '',
    req.desired === version ? 'the desired release' : '',
    historyEntry && !operators.length && req.desired !== version
      ? `history entry ${version} (${historyEntry.state})`
      : '',
  ]
    .filter(Boolean)
    .join(', ');
  const parts = [
    `${input.listName} has no status entry for ${version}, still required by ` + `${who || 'running components'}.`,
    outgoing
      ? `The update is moving away from ${version}; every component still on ${version} that restarts now fails with ` +
        `'missing desired version "${version}"', even before any consumer has crashed.`
      : `Components at ${version} fail to start with 'missing desired version "${version}"'.`,
    crashes.length ? `${crashes.length} container(s) already report it, ${looping} in CrashLoopBackOff.` : '',
  ];
  const since = earliestCrash(crashes);
  const first = crashes.find((c) => c.notReadySince === since);
  if (first && since) {
    evidence.push({
      kind: 'condition',
      label: 'First consumer not ready (onset)',
      ref: first.pod,
      path: 'status.conditions[type=Ready]',
      value: 'False',
      at: since,
    });
  }
  return {
    id: findingId(ID, fgRef, `missing-${version}`),
    detector: ID,
    severity: 'critical',
    subject: fgRef,
    title: outgoing
      ? `FeatureGate status dropped outgoing version ${version} during the update`
      : `FeatureGate status lacks version ${version}`,
    summary: parts.filter(Boolean).join(' '),
    evidence,
    remediation: input.hosted ? hostedRemediation(input) : REMEDIATION,
    ...(since ? { since } : {}),
  };
}

function prunableFinding(fgRef: ObjectRef, prunable: string[], input: CoverageInput): Finding {
  return {
    id: findingId(ID, fgRef, 'prunable'),
    detector: ID,
    severity: 'info',
    subject: fgRef,
    title: `${prunable.length} FeatureGate status version${prunable.length === 1 ? '' : 's'} not in ClusterVersion history`,
    summary:
      `status.featureGates[] lists ${prunable.length} version(s) the ${input.versionRef?.kind ?? 'ClusterVersion'} history no longer mentions ` +
      `(${prunable.join(', ')}). Nothing requires them; they are safe to prune and harmless to keep.`,
    evidence: [{ kind: 'field', label: 'Versions not in history', ref: fgRef, path: input.listPath, value: prunable }],
    remediation: input.hosted ? hostedRemediation(input).slice(0, 2) : [REMEDIATION[0], REMEDIATION[1]],
  };
}

function detect(snapshot: Snapshot): ReturnType<Detector['detect']> {
  const input = standaloneCoverage(snapshot) ?? hostedCoverage(snapshot);
  if (!input) return { findings: [], samples: { required: null, present: null, missing: null } };
  const { required: req, present } = input;
  const crashes = featureGateCrashes(snapshot).filter((c) => !present.includes(c.version));
  const missing = new Set([...req.all, ...crashes.map((c) => c.version)].filter((v) => !present.includes(v)));
  const findings = [...missing]
    .sort(compareVersions)
    .reverse()
    .map((v) =>
      missingFinding(
        v,
        input,
        crashes.filter((c) => c.version === v),
        v === input.outgoing,
      ),
    );
  const known = new Set([...input.historyVersions, ...req.all]);
  const prunable = [...new Set(present.filter((v) => !known.has(v)))].sort(compareVersions);
  if (prunable.length) findings.push(prunableFinding(input.subject, prunable, input));
  return {
    findings,
    samples: { required: req.all.size, present: new Set(present).size, missing: missing.size },
  };
}

/**
 * Detector A, on a cluster's own FeatureGate or, for a hosted cluster seen from its management cluster, on the
 * FeatureGate rendered into ConfigMap `<hcp-namespace>/feature-gate` (then the subject is that ConfigMap, the
 * history is HostedCluster `status.version` and the components are ControlPlaneComponents). Emits, on subject
 * FeatureGate `cluster`:
 * - `featuregate-coverage:FeatureGate//cluster:missing-<version>` (critical) per required version absent from
 *   `status.featureGates[]`, with the components at that version and any crash-looping consumers;
 * - `featuregate-coverage:FeatureGate//cluster:prunable` (info) when the list holds versions outside the history.
 * Samples: `required`, `present`, `missing` (counts of distinct versions; `null` without ClusterVersion/FeatureGate).
 */
export const featureGateCoverage: Detector = {
  id: ID,
  title: 'FeatureGate version coverage',
  insight: {
    impactType: 'Update Stalled',
    scopeType: 'ControlPlane',
    referenceUrl:
      'https://github.com/openshift/library-go/blob/master/pkg/operator/configobserver/featuregates/simple_featuregate_reader.go',
  }, // components at a missing version cannot read their features and crash-loop: the update stops there
  needs: [
    { resource: 'clusterversions', name: 'version' },
    { resource: 'featuregates', name: 'cluster' },
    { resource: 'clusteroperators' },
    // Consumers of the FeatureGate run in many namespaces (every operator reads it).
    { resource: 'pods' },
    // Seen from a HyperShift management cluster: the rendered FeatureGate of each hosted control plane.
    { resource: 'hostedclusters', optional: true },
    { resource: 'controlplanecomponents', optional: true },
    { resource: 'configmaps', name: HCP_FEATURE_GATE_CONFIGMAP },
  ],
  detect,
};
