/**
 * Whether a cluster's release runs OLMv1 (catalogd, operator-controller). OpenShift ships it as TechPreview from 4.14
 * to 4.17 (only with the TechPreviewNoUpgrade feature set) and GA from 4.18; on other releases its Deployments do not
 * exist, so their absence (or leftovers) is not a finding. An upstream install ({@link UPSTREAM_OLMV1_NAMESPACE})
 * is the user's, on any release.
 */
import type { Snapshot } from '@/lib/health/types';
import { asString, dig, findObject, clusterVersionOf } from '@/lib/health/shared/objects';
import { parseVersion } from '@/lib/k8s/version';
import { historyOf } from '@/lib/k8s/cluster-version';

/**
 * The namespace of an OLMv1 installed by hand from upstream: it exists on any release, so its objects count
 * wherever they are found; the `openshift-*` namespaces are the release's own OLMv1.
 */
export const UPSTREAM_OLMV1_NAMESPACE = 'olmv1-system';

/** The feature set that turns on Technology Preview features (OLMv1 before 4.18). */
export const TECH_PREVIEW_FEATURE_SET = 'TechPreviewNoUpgrade';

/** The first minor that runs OLMv1 by default, and the first that offers it as TechPreview. */
const GA_MINOR = 18;
const TECH_PREVIEW_MINOR = 14;

/** Whether release `version` runs OLMv1 with the cluster's `featureSet`; undefined when the version does not parse. */
export function releaseRunsOlmv1(version: string, featureSet: string | undefined): boolean | undefined {
  const v = parseVersion(version);
  if (!v) return undefined;
  if (v.major !== 4) return v.major > 4;
  if (v.minor >= GA_MINOR) return true;
  return v.minor >= TECH_PREVIEW_MINOR && featureSet === TECH_PREVIEW_FEATURE_SET;
}

/** Whether OLMv1 objects in `namespace` are OLMv1 the cluster runs: the upstream namespace always, else by release. */
export function olmv1NamespaceActive(snapshot: Snapshot, namespace: string | undefined): boolean {
  return namespace === UPSTREAM_OLMV1_NAMESPACE || runsOlmv1(snapshot);
}

/**
 * Whether the snapshot's cluster release runs OLMv1: decided by its ClusterVersion (the desired release, or the
 * release it runs, while an update moves between the two) and the FeatureGate feature set. Without a ClusterVersion
 * (upstream Kubernetes with `olmv1-system`), whatever OLMv1 objects exist decide, so this says true.
 */
export function runsOlmv1(snapshot: Snapshot): boolean {
  const cv = clusterVersionOf(snapshot);
  const featureSet = asString(dig(findObject(snapshot, 'featuregates', 'cluster'), 'spec', 'featureSet'));
  const desired = asString(dig(cv, 'status', 'desired', 'version'));
  const running = historyOf(cv).find((h) => h.state === 'Completed')?.version;
  const verdicts = [desired, running]
    .flatMap((v) => (v ? [releaseRunsOlmv1(v, featureSet)] : []))
    .filter((x): x is boolean => x !== undefined);
  return verdicts.length === 0 || verdicts.some(Boolean);
}
