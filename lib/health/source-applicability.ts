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
 * The sources as the cluster's health states them: on OpenShift, a watch in an upstream-only namespace that RBAC
 * refuses is `not-applicable` (still retried: an upstream OLMv1 granted later is read); elsewhere a refusal stays
 * `forbidden`, and what a reader may read there is watched and used as on any cluster.
 */
export function judgeSources(sources: readonly SourceStateDto[]): SourceStateDto[] {
  if (!servesOpenShift(sources)) return [...sources];
  return sources.map((s) =>
    s.status === 'forbidden' && UPSTREAM_ONLY_NAMESPACES.has(s.namespace ?? '')
      ? { ...s, status: 'not-applicable' as const }
      : s,
  );
}
