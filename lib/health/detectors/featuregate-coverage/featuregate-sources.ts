/**
 * Where detector A reads the FeatureGate coverage from. A standalone (or hosted, seen from inside) cluster has
 * featuregates.config.openshift.io/cluster and its ClusterVersion. Seen from the HyperShift management cluster, a
 * hosted cluster's FeatureGate is what the featuregate-generator Job rendered into ConfigMap `feature-gate`
 * (key `feature-gate.yaml`) of its control-plane namespace, its release history is HostedCluster
 * `status.version`, and its components' versions are the ControlPlaneComponents' `status.version`.
 */
import { load } from 'js-yaml';
import type { KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { Snapshot } from '@/lib/health/types';
import { parseVersion } from '@/lib/k8s/version';
import { asArray, asObject, asString, dig, findObject, objectsOf, clusterVersionOf } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import { historyOf } from '@/lib/k8s/cluster-version';

/** ConfigMap the featuregate-generator Job writes in the HCP namespace, and its key. */
export const HCP_FEATURE_GATE_CONFIGMAP = 'feature-gate';
export const HCP_FEATURE_GATE_KEY = 'feature-gate.yaml';

/** One release-history entry. */
export interface HistoryEntry {
  version: string;
  state: string;
  startedTime?: string;
}

/** The versions the FeatureGate status must cover and why each one is required. */
export interface RequiredVersions {
  desired?: string;
  /** History entries from the newest back to and including the first `Completed` one. */
  history: HistoryEntry[];
  /** Component names (ClusterOperators, or control-plane components) by the version they run. */
  operators: Map<string, string[]>;
  all: Set<string>;
}

/** Everything detector A compares, from whichever source the cluster offers. */
export interface CoverageInput {
  /** The object that lists the versions (FeatureGate, or the HCP's `feature-gate` ConfigMap). */
  subject: ObjectRef;
  /** How to name the list in prose. */
  listName: string;
  /** Field path of the list on the subject. */
  listPath: string;
  present: string[];
  required: RequiredVersions;
  /** Every version the release history mentions. */
  historyVersions: string[];
  /** During an update, the version being left. */
  outgoing?: string;
  /** The object holding the release history (ClusterVersion or HostedCluster) and its field prefix. */
  versionRef?: ObjectRef;
  versionPath: string;
  /** What the components are called (`ClusterOperator`, `control-plane component`). */
  componentNoun: string;
  hosted: boolean;
}

/** The release history, entries without a version dropped. */
function versionedHistory(object: KubeObject | undefined): HistoryEntry[] {
  return historyOf(object).flatMap(({ version, state, startedTime }) =>
    version ? [{ version, state: state ?? '', startedTime }] : [],
  );
}

function required(
  desired: string | undefined,
  all: HistoryEntry[],
  byVersion: Map<string, string[]>,
): RequiredVersions {
  const history: HistoryEntry[] = [];
  for (const entry of all) {
    history.push(entry);
    if (entry.state === 'Completed') break;
  }
  const versions = new Set<string>([
    ...(desired ? [desired] : []),
    ...history.map((h) => h.version),
    ...byVersion.keys(),
  ]);
  return { desired, history, operators: byVersion, all: versions };
}

function addComponent(byVersion: Map<string, string[]>, version: string | undefined, name: string): void {
  if (version) byVersion.set(version, [...(byVersion.get(version) ?? []), name].sort());
}

/** During an update (history[0] Partial or progressing), the version being left: the newest older Completed one. */
function outgoingOf(history: HistoryEntry[], progressing: boolean): string | undefined {
  const updating = history[0]?.state === 'Partial' || progressing;
  if (!updating || history.length < 2) return undefined;
  return (history.slice(1).find((h) => h.state === 'Completed') ?? history[1]).version;
}

/** Versions listed in a FeatureGate's `status.featureGates[].version` (empty strings dropped). */
export function presentVersions(featureGate: unknown): string[] {
  return asArray(dig(featureGate, 'status', 'featureGates'))
    .map((g) => asString(asObject(g)?.version))
    .filter((v): v is string => !!v);
}

/**
 * FeatureGate status lists versions only from 4.14 on; older clusters never populate `status.featureGates`, and
 * their components do not read it, so there is nothing to check there.
 */
function recordsVersions(featureGate: unknown, desired: string | undefined): boolean {
  if (Array.isArray(dig(featureGate, 'status', 'featureGates'))) return true;
  const v = desired ? parseVersion(desired) : undefined;
  return v !== undefined && (v.major > 4 || (v.major === 4 && v.minor >= 14));
}

/** The cluster's own FeatureGate and ClusterVersion, when both are in the snapshot. */
export function standaloneCoverage(snapshot: Snapshot): CoverageInput | undefined {
  const cv = clusterVersionOf(snapshot);
  const fg = findObject(snapshot, 'featuregates', 'cluster');
  const desired = asString(dig(cv, 'status', 'desired', 'version')) || undefined;
  if (!cv || !fg || !recordsVersions(fg, desired)) return undefined;
  const byVersion = new Map<string, string[]>();
  for (const co of objectsOf(snapshot, 'clusteroperators')) {
    const v = asArray(dig(co, 'status', 'versions')).find((x) => asObject(x)?.name === 'operator');
    addComponent(byVersion, asString(asObject(v)?.version), co.metadata.name);
  }
  const history = versionedHistory(cv);
  return {
    subject: refOf(fg),
    listName: 'featuregates.config.openshift.io/cluster',
    listPath: 'status.featureGates[].version',
    present: presentVersions(fg),
    required: required(desired, history, byVersion),
    historyVersions: history.map((h) => h.version),
    outgoing: outgoingOf(history, conditionOf(cv, 'Progressing')?.status === 'True'),
    versionRef: refOf(cv),
    versionPath: 'status',
    componentNoun: 'ClusterOperator',
    hosted: false,
  };
}

const parsedConfigMaps = new WeakMap<KubeObject, unknown>();

/** The FeatureGate rendered into a `feature-gate` ConfigMap (undefined when absent or not YAML). */
export function renderedFeatureGate(configMap: KubeObject): unknown {
  if (parsedConfigMaps.has(configMap)) return parsedConfigMaps.get(configMap);
  let parsed: unknown;
  try {
    parsed = load(asString(dig(configMap, 'data', HCP_FEATURE_GATE_KEY)) ?? '');
  } catch {
    parsed = undefined;
  }
  parsedConfigMaps.set(configMap, parsed);
  return parsed;
}

/**
 * A hosted cluster seen from its management cluster: exactly one HostedCluster in the snapshot, the rendered
 * FeatureGate of its control-plane namespace, and its ControlPlaneComponents.
 */
export function hostedCoverage(snapshot: Snapshot): CoverageInput | undefined {
  const hostedClusters = objectsOf(snapshot, 'hostedclusters');
  if (hostedClusters.length !== 1) return undefined;
  const hc = hostedClusters[0];
  const hcpNamespace = `${hc.metadata.namespace ?? ''}-${hc.metadata.name}`;
  const configMap = findObject(snapshot, 'configmaps', HCP_FEATURE_GATE_CONFIGMAP, hcpNamespace);
  const statusVersion = dig(hc, 'status', 'version');
  const desired = asString(dig(statusVersion, 'desired', 'version')) || undefined;
  const fg = configMap ? renderedFeatureGate(configMap) : undefined;
  if (!configMap || !fg || !recordsVersions(fg, desired)) return undefined;
  const byVersion = new Map<string, string[]>();
  for (const cpc of objectsOf(snapshot, 'controlplanecomponents', hcpNamespace)) {
    addComponent(byVersion, asString(dig(cpc, 'status', 'version')), cpc.metadata.name);
  }
  const history = versionedHistory(hc);
  return {
    subject: refOf(configMap),
    listName: `the FeatureGate rendered into ConfigMap ${hcpNamespace}/${HCP_FEATURE_GATE_CONFIGMAP}`,
    listPath: `data["${HCP_FEATURE_GATE_KEY}"].status.featureGates[].version`,
    present: presentVersions(fg),
    required: required(desired, history, byVersion),
    historyVersions: history.map((h) => h.version),
    outgoing: outgoingOf(history, conditionOf(hc, 'Progressing')?.status === 'True'),
    versionRef: refOf(hc),
    versionPath: 'status.version',
    componentNoun: 'control-plane component',
    hosted: true,
  };
}
