/**
 * Which watched sources apply to a cluster. The detectors also look in upstream OLMv1's namespace for clusters that
 * are not OpenShift; OpenShift's own OLMv1 lives in `openshift-*` namespaces, and the shipped RBAC cannot grant a
 * namespace OpenShift never has (a RoleBinding needs its namespace). There, a refused watch is not a failure.
 */
import type { SourceStateDto } from '@/lib/api/dto';
import { UPSTREAM_OLMV1_NAMESPACE } from '@/lib/health/shared/olmv1-presence';

/** Namespaces only clusters that are not OpenShift have: the shipped RBAC grants nothing there. */
export const UPSTREAM_ONLY_NAMESPACES: ReadonlySet<string> = new Set([UPSTREAM_OLMV1_NAMESPACE]);

/**
 * Whether the sources show an OpenShift cluster: its ClusterVersion API listed once (synced, or stale after a sync).
 * Kubernetes without OpenShift answers 404 there, so that source never syncs.
 */
export function servesOpenShift(sources: readonly Pick<SourceStateDto, 'resource' | 'status'>[]): boolean {
  return sources.some((s) => s.resource === 'clusterversions' && (s.status === 'synced' || s.status === 'stale'));
}

/**
 * What to do with the needs in upstream-only namespaces, from the cluster's sources: `'not-applicable'` on OpenShift
 * (its ClusterVersion API listed: no watch, no request), `'watch'` once the ClusterVersion source answered otherwise
 * (404 on Kubernetes without OpenShift; a refusal or an outage, where OpenShift cannot be told) or where nothing
 * watches ClusterVersion, `'wait'` until then.
 */
export function upstreamOnlyPlan(
  sources: readonly Pick<SourceStateDto, 'resource' | 'status' | 'error'>[],
): 'not-applicable' | 'watch' | 'wait' {
  if (servesOpenShift(sources)) return 'not-applicable';
  const clusterVersion = sources.find((s) => s.resource === 'clusterversions');
  return clusterVersion === undefined || clusterVersion.error !== undefined ? 'watch' : 'wait';
}

/** True for a need in a namespace only clusters that are not OpenShift have (started only once that is known). */
export function upstreamOnly(need: { namespace?: string }): boolean {
  return need.namespace !== undefined && UPSTREAM_ONLY_NAMESPACES.has(need.namespace);
}

/**
 * The sources as the cluster's health states them: on OpenShift, a watch in an upstream-only namespace that RBAC
 * refuses (one started before the cluster was known to be OpenShift, see {@link upstreamOnlyPlan}) is
 * `not-applicable`; elsewhere a refusal stays `forbidden`, and what a reader may read there is watched and used as on
 * any cluster.
 */
export function judgeSources<S extends Pick<SourceStateDto, 'resource' | 'namespace' | 'status'>>(
  sources: readonly S[],
): S[] {
  if (!servesOpenShift(sources)) return [...sources];
  return sources.map((s) =>
    s.status === 'forbidden' && UPSTREAM_ONLY_NAMESPACES.has(s.namespace ?? '')
      ? { ...s, status: 'not-applicable' as const }
      : s,
  );
}
