/**
 * Failure mode A — FeatureGate version gap. `featuregates.config.openshift.io/cluster` `status.featureGates[]` must
 * hold an entry for every release version a running component is at; a component whose version is missing fails
 * to start (`missing desired version "X"`). HyperShift once replaced the list with only the incoming version.
 */
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { Detector, Evidence, Finding, RemediationStep, Snapshot } from '@/lib/health/types';
import { compareVersions, parseVersion } from '@/lib/version';
import { asArray, asObject, asString, conditionOf, dig, findingId, findObject, objectsOf, refOf } from '@/lib/health/objects';
import { earliestCrash, featureGateCrashes, type FeatureGateCrash } from '@/lib/health/featuregate-crashes';

const ID = 'featuregate-coverage' as const;
const FEATUREGATE_DOC = 'https://docs.redhat.com/en/documentation/openshift_container_platform/4.14/html/config_apis/featuregate-config-openshift-io-v1';

interface HistoryEntry {
  version: string;
  state: string;
  startedTime?: string;
}

/** The versions the FeatureGate status must cover and why each one is required. */
export interface RequiredVersions {
  desired?: string;
  /** History entries from the newest back to and including the first `Completed` one. */
  history: HistoryEntry[];
  /** ClusterOperator names by their `operator` version. */
  operators: Map<string, string[]>;
  all: Set<string>;
}

function historyOf(cv: KubeObject | undefined): HistoryEntry[] {
  return asArray(dig(cv, 'status', 'history')).flatMap((h) => {
    const version = asString(asObject(h)?.version);
    return version
      ? [{ version, state: asString(asObject(h)?.state) ?? '', startedTime: asString(asObject(h)?.startedTime) }]
      : [];
  });
}

/**
 * Required versions per SPEC §6 A: ClusterVersion `status.desired.version` ∪ every ClusterOperator
 * `status.versions[name=operator].version` ∪ history versions back to (and including) the first Completed entry.
 */
export function requiredVersions(cv: KubeObject | undefined, operators: readonly KubeObject[]): RequiredVersions {
  const desired = asString(dig(cv, 'status', 'desired', 'version')) || undefined;
  const history: HistoryEntry[] = [];
  for (const entry of historyOf(cv)) {
    history.push(entry);
    if (entry.state === 'Completed') break;
  }
  const byVersion = new Map<string, string[]>();
  for (const co of operators) {
    const v = asArray(dig(co, 'status', 'versions')).find((x) => asObject(x)?.name === 'operator');
    const version = asString(asObject(v)?.version);
    if (version) byVersion.set(version, [...(byVersion.get(version) ?? []), co.metadata.name].sort());
  }
  const all = new Set<string>([...(desired ? [desired] : []), ...history.map((h) => h.version), ...byVersion.keys()]);
  return { desired, history, operators: byVersion, all };
}

/** Versions listed in the FeatureGate's `status.featureGates[].version` (empty strings dropped). */
export function presentVersions(featureGate: KubeObject | undefined): string[] {
  return asArray(dig(featureGate, 'status', 'featureGates'))
    .map((g) => asString(asObject(g)?.version))
    .filter((v): v is string => !!v);
}

/** During an update (history[0] Partial or Progressing=True), the version being left: the newest older Completed one. */
function outgoingVersion(cv: KubeObject | undefined): string | undefined {
  const all = historyOf(cv);
  const updating = all[0]?.state === 'Partial' || conditionOf(cv, 'Progressing')?.status === 'True';
  if (!updating || all.length < 2) return undefined;
  return (all.slice(1).find((h) => h.state === 'Completed') ?? all[1]).version;
}

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
    title: 'On HyperShift the control-plane operator writes this list: move the hosted cluster to a HyperShift build that '
      + 'keeps history versions, or finish the update so no component needs the missing version',
    docUrl: FEATUREGATE_DOC,
  },
];

function missingFinding(
  version: string, fgRef: ObjectRef, cvRef: ObjectRef | undefined, present: string[], req: RequiredVersions,
  crashes: FeatureGateCrash[], outgoing: boolean,
): Finding {
  const operators = req.operators.get(version) ?? [];
  const historyEntry = req.history.find((h) => h.version === version);
  const evidence: Evidence[] = [
    { kind: 'field', label: 'FeatureGate status versions', ref: fgRef, path: 'status.featureGates[].version', value: present },
  ];
  if (cvRef && req.desired) {
    evidence.push({ kind: 'field', label: 'Desired version', ref: cvRef, path: 'status.desired.version', value: req.desired });
  }
  if (cvRef && req.history.length) {
    evidence.push({
      kind: 'field', label: 'ClusterVersion history (back to the first Completed)', ref: cvRef,
      path: 'status.history[].version', value: req.history.map((h) => `${h.version} (${h.state || 'unknown'})`),
    });
  }
  if (operators.length) {
    evidence.push({
      kind: 'field', label: `ClusterOperators at ${version}`, path: 'status.versions[name=operator].version',
      value: operators,
    });
  }
  for (const c of crashes) {
    evidence.push({ kind: 'log', label: `${c.crashLooping ? 'Crash-looping' : 'Failed'} consumer`, ref: c.pod,
      container: c.container, lines: [c.line], ...(c.at ? { at: c.at } : {}) });
  }
  const looping = crashes.filter((c) => c.crashLooping).length;
  const who = [
    operators.length ? `${operators.length} ClusterOperator${operators.length === 1 ? '' : 's'} (${operators.join(', ')})` : '',
    req.desired === version ? 'the desired release' : '',
    historyEntry && !operators.length && req.desired !== version ? `history entry ${version} (${historyEntry.state})` : '',
  ].filter(Boolean).join(', ');
  const parts = [
    `featuregates.config.openshift.io/cluster has no status entry for ${version}, still required by `
      + `${who || 'running components'}.`,
    outgoing
      ? `The update is moving away from ${version}; every component still on ${version} that restarts now fails with `
        + `'missing desired version "${version}"', even before any consumer has crashed.`
      : `Components at ${version} fail to start with 'missing desired version "${version}"'.`,
    crashes.length ? `${crashes.length} container(s) already report it, ${looping} in CrashLoopBackOff.` : '',
  ];
  const since = earliestCrash(crashes);
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
    remediation: REMEDIATION,
    ...(since ? { since } : {}),
  };
}

function prunableFinding(fgRef: ObjectRef, prunable: string[]): Finding {
  return {
    id: findingId(ID, fgRef, 'prunable'),
    detector: ID,
    severity: 'info',
    subject: fgRef,
    title: `${prunable.length} FeatureGate status version${prunable.length === 1 ? '' : 's'} not in ClusterVersion history`,
    summary: `status.featureGates[] lists ${prunable.length} version(s) the ClusterVersion history no longer mentions `
      + `(${prunable.join(', ')}). Nothing requires them; they are safe to prune and harmless to keep.`,
    evidence: [{ kind: 'field', label: 'Versions not in history', ref: fgRef, path: 'status.featureGates[].version', value: prunable }],
    remediation: [REMEDIATION[0], REMEDIATION[1]],
  };
}

/**
 * FeatureGate status lists versions only from 4.14 on; older clusters never populate `status.featureGates`, and
 * their components do not read it, so there is nothing to check there.
 */
function recordsVersions(fg: KubeObject, cv: KubeObject): boolean {
  if (Array.isArray(dig(fg, 'status', 'featureGates'))) return true;
  const desired = asString(dig(cv, 'status', 'desired', 'version'));
  const minor = desired ? parseVersion(desired) : undefined;
  return minor !== undefined && (minor.major > 4 || (minor.major === 4 && minor.minor >= 14));
}

function detect(snapshot: Snapshot): ReturnType<Detector['detect']> {
  const cv = findObject(snapshot, 'clusterversions', 'version') ?? objectsOf(snapshot, 'clusterversions')[0];
  const fg = findObject(snapshot, 'featuregates', 'cluster');
  if (!cv || !fg || !recordsVersions(fg, cv)) return { findings: [], samples: { required: null, present: null, missing: null } };
  const req = requiredVersions(cv, objectsOf(snapshot, 'clusteroperators'));
  const present = presentVersions(fg);
  const crashes = featureGateCrashes(snapshot).filter((c) => !present.includes(c.version));
  const missing = new Set([...req.all, ...crashes.map((c) => c.version)].filter((v) => !present.includes(v)));
  const outgoing = outgoingVersion(cv);
  const fgRef = refOf(fg);
  const findings = [...missing].sort(compareVersions).reverse().map((v) =>
    missingFinding(v, fgRef, refOf(cv), present, req, crashes.filter((c) => c.version === v), v === outgoing));
  const known = new Set([...historyOf(cv).map((h) => h.version), ...req.all]);
  const prunable = [...new Set(present.filter((v) => !known.has(v)))].sort(compareVersions);
  if (prunable.length) findings.push(prunableFinding(fgRef, prunable));
  return {
    findings,
    samples: { required: req.all.size, present: new Set(present).size, missing: missing.size },
  };
}

/**
 * Detector A. Emits, on subject FeatureGate `cluster`:
 * - `featuregate-coverage:FeatureGate//cluster:missing-<version>` (critical) per required version absent from
 *   `status.featureGates[]`, with the components at that version and any crash-looping consumers;
 * - `featuregate-coverage:FeatureGate//cluster:prunable` (info) when the list holds versions outside the history.
 * Samples: `required`, `present`, `missing` (counts of distinct versions; `null` without ClusterVersion/FeatureGate).
 */
export const featureGateCoverage: Detector = {
  id: ID,
  title: 'FeatureGate version coverage',
  needs: [
    { resource: 'clusterversions', name: 'version' },
    { resource: 'featuregates', name: 'cluster' },
    { resource: 'clusteroperators' },
    // Consumers of the FeatureGate run in many namespaces (every operator reads it).
    { resource: 'pods' },
  ],
  detect,
};
