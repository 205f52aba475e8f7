/**
 * What each view derived from a cluster's objects reads, declared once like the detectors' needs: update progress,
 * update recommendations (Before you update), the rollback plan and its checks, and a hosted cluster's control-plane
 * details. The visibility filter shows a derived view only to a viewer who may read every input listed here — the
 * same rule as a detector's samples — so no view leaks objects the viewer cannot read.
 */
import type { ClusterHealthDto } from '@/lib/api/dto';
import { catalogReplicas } from '@/lib/health/detectors/catalog-replicas/catalog-replicas';
import { installSettling } from '@/lib/health/detectors/install-settling/install-settling';
import type { ResourceNeed } from '@/lib/health/types';
import { updateProgress } from '@/lib/health/detectors/update-progress/update-progress';
import { CLUSTER_METRICS_ACCESS, accessForDeclaredNeed, uniqueChecks, type AccessCheck } from './access-check';

/** The derived views of a cluster, by their field in the health (`rollbackPlan`: the rollback-plan route). */
export const DERIVED_VIEWS = ['updateProgress', 'updateRecommendations', 'hosted', 'rollbackPlan'] as const;

/** One derived view. */
export type DerivedViewId = (typeof DERIVED_VIEWS)[number];

/**
 * Detectors whose findings restate a derived view (the update-progress summary gives operator health and worker
 * pool counts under the ClusterVersion's name): their findings are shown only with that view.
 */
export const FINDINGS_OF_VIEW: Readonly<Partial<Record<string, DerivedViewId>>> = {
  [updateProgress.id]: 'updateProgress',
};

type HostedDetails = NonNullable<ClusterHealthDto['hosted']>;

const CLUSTER_VERSION: ResourceNeed = { resource: 'clusterversions', name: 'version' };
const FEATURE_GATE: ResourceNeed = { resource: 'featuregates', name: 'cluster' };
/** The OLMv1 Deployments and PodDisruptionBudgets whose drains the predictions and the catalog check judge. */
const CATALOG_WORKLOADS: ResourceNeed[] = catalogReplicas.needs.filter(
  (need) => need.resource === 'deployments' || need.resource === 'poddisruptionbudgets',
);

const checksOf = (needs: readonly ResourceNeed[]): AccessCheck[] => needs.map(accessForDeclaredNeed);

/** Served progress reads what the update-progress detector declares, plus firing alerts (cluster-wide metrics). */
const STANDALONE_PROGRESS: AccessCheck[] = [...checksOf(updateProgress.needs), CLUSTER_METRICS_ACCESS];

/** `oc adm upgrade recommend` (ClusterVersion, alert prechecks) and our predictions (catalog drains, FeatureGate). */
const RECOMMENDATIONS: AccessCheck[] = [
  ...checksOf([CLUSTER_VERSION, FEATURE_GATE, ...CATALOG_WORKLOADS]),
  CLUSTER_METRICS_ACCESS,
];

/**
 * The rollback checks: ClusterVersion (CVO rules, capabilities, commands), FeatureGate, catalog workloads,
 * ClusterOperators, and the findings of install-settling and pod-setup latency (whatever those detectors read).
 */
const ROLLBACK_PLAN: AccessCheck[] = [
  ...checksOf([
    CLUSTER_VERSION,
    FEATURE_GATE,
    ...CATALOG_WORKLOADS,
    { resource: 'clusteroperators' },
    ...installSettling.needs,
  ]),
  CLUSTER_METRICS_ACCESS,
];

function hostedCluster(hosted: HostedDetails): AccessCheck {
  return accessForDeclaredNeed({ resource: 'hostedclusters', namespace: hosted.namespace, name: hosted.name });
}

/** A hosted cluster's progress: its HostedCluster, the HCP namespace's ControlPlaneComponents, its NodePools. */
function hostedProgress(hosted: HostedDetails): AccessCheck[] {
  return [
    hostedCluster(hosted),
    ...checksOf([
      { resource: 'controlplanecomponents', namespace: hosted.hcpNamespace },
      { resource: 'nodepools', namespace: hosted.namespace },
    ]),
  ];
}

/** The control-plane details add the HCP namespace's pods to what its progress reads. */
function hostedDetails(hosted: HostedDetails): AccessCheck[] {
  return [...hostedProgress(hosted), ...checksOf([{ resource: 'pods', namespace: hosted.hcpNamespace }])];
}

/**
 * The checks each derived view present in this health needs (a view the health does not carry is absent). A
 * hosted cluster's progress is built from its management cluster's objects, and also from its own when its own
 * context is watched too (it then has a ClusterVersion, and recommendations, of its own); the rollback plan exists
 * for clusters with a ClusterVersion of their own.
 */
export function derivedViewAccess(health: ClusterHealthDto): Partial<Record<DerivedViewId, AccessCheck[]>> {
  const { hosted } = health;
  const ownClusterVersion = !hosted || health.updateRecommendations !== null;
  const progress = [...(hosted ? hostedProgress(hosted) : []), ...(ownClusterVersion ? STANDALONE_PROGRESS : [])];
  return {
    ...(health.updateProgress ? { updateProgress: uniqueChecks(progress) } : {}),
    ...(health.updateRecommendations ? { updateRecommendations: uniqueChecks(RECOMMENDATIONS) } : {}),
    ...(hosted ? { hosted: uniqueChecks(hostedDetails(hosted)) } : {}),
    ...(ownClusterVersion ? { rollbackPlan: uniqueChecks(ROLLBACK_PLAN) } : {}),
  };
}
