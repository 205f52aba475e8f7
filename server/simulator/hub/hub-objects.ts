/**
 * The objects an ACM / Open Cluster Management hub keeps for each managed cluster, shaped like the upstream
 * controllers write them: registration (ManagedCluster, cluster sets), add-ons and the foundation's
 * ManagedClusterInfo; the names and labels every hub object shares. Access objects: access-objects.ts.
 * Names, labels and keys follow open-cluster-management-io/{api,cluster-proxy,managed-serviceaccount} and
 * kubernetes-sigs/cluster-inventory-api.
 */
import type { Condition, KubeObject } from '@/lib/k8s/types';
import { iso } from '../objects/time';
import { AGENT_ADDON_NAMESPACE, LABEL_CLUSTERSET, CONDITION_AVAILABLE } from '@/lib/acm/ocm-names';

/** What the hub knows about one managed cluster when it registers it. */
export interface ManagedClusterFacts {
  name: string;
  /** The managed cluster's API server URL and serving CA (base64 PEM). */
  apiServerUrl: string;
  caData: string;
  /** ClusterVersion `spec.clusterID`. */
  clusterId: string;
  /** OpenShift version (ClusterVersion `status.desired.version`). */
  version: string;
  kubernetesVersion: string;
  /** Infrastructure `status.controlPlaneTopology` (HighlyAvailable, SingleReplica, External). */
  controlPlaneTopology: string;
}

/** A condition as OCM controllers write it. */
export function condition(type: string, status: string, reason: string, message: string, nowMs: number): Condition {
  return { type, status, reason, message, lastTransitionTime: iso(nowMs) };
}

/** A Namespace on the hub. */
export function hubNamespace(name: string): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } };
}

/** A ManagedClusterSet selecting its clusters by the exclusive clusterset label. */
export function managedClusterSet(name: string): KubeObject {
  return {
    apiVersion: 'cluster.open-cluster-management.io/v1beta2',
    kind: 'ManagedClusterSet',
    metadata: { name },
    spec: { clusterSelector: { selectorType: 'ExclusiveClusterSetLabel' } },
  };
}

/** The ManagedClusterSetBinding of `clusterSet` into `namespace` (OCM requires it to be named after the set). */
export function managedClusterSetBinding(clusterSet: string, namespace: string): KubeObject {
  return {
    apiVersion: 'cluster.open-cluster-management.io/v1beta2',
    kind: 'ManagedClusterSetBinding',
    metadata: { name: clusterSet, namespace },
    spec: { clusterSet },
  };
}

/** A ManagedCluster as imported (spec only; the registration controller writes the status). */
export function managedCluster(facts: ManagedClusterFacts, clusterSet: string): KubeObject {
  return {
    apiVersion: 'cluster.open-cluster-management.io/v1',
    kind: 'ManagedCluster',
    metadata: {
      name: facts.name,
      labels: {
        [LABEL_CLUSTERSET]: clusterSet,
        name: facts.name,
        vendor: 'OpenShift',
        clusterID: facts.clusterId,
        openshiftVersion: facts.version,
      },
    },
    spec: {
      hubAcceptsClient: true,
      leaseDurationSeconds: 60,
      managedClusterClientConfigs: [{ url: facts.apiServerUrl, caBundle: facts.caData }],
    },
  };
}

/** The status the registration controller and the klusterlet's claim controller report for a joined cluster. */
export function managedClusterStatus(
  facts: ManagedClusterFacts,
  available: Condition,
  nowMs: number,
): KubeObject['status'] {
  return {
    conditions: [
      condition('HubAcceptedManagedCluster', 'True', 'HubClusterAdminAccepted', 'Accepted by hub cluster admin', nowMs),
      condition('ManagedClusterJoined', 'True', 'ManagedClusterJoined', 'Managed cluster joined', nowMs),
      available,
    ],
    clusterClaims: [
      { name: 'id.k8s.io', value: facts.name },
      { name: 'id.openshift.io', value: facts.clusterId },
      { name: 'version.openshift.io', value: facts.version },
      { name: 'product.open-cluster-management.io', value: 'OpenShift' },
      { name: 'platform.open-cluster-management.io', value: 'Other' },
      { name: 'controlplanetopology.openshift.io', value: facts.controlPlaneTopology },
      { name: 'apiserverurl.openshift.io', value: facts.apiServerUrl },
    ],
    version: { kubernetes: facts.kubernetesVersion },
  };
}

/** The Available condition as the registration controller words it. */
export function availableCondition(status: 'True' | 'False' | 'Unknown', nowMs: number): Condition {
  if (status === 'True') {
    return condition(CONDITION_AVAILABLE, 'True', 'ManagedClusterAvailable', 'Managed cluster is available', nowMs);
  }
  if (status === 'False') {
    return condition(
      CONDITION_AVAILABLE,
      'False',
      'ManagedClusterKubeAPIServerUnavailable',
      'The kube-apiserver is not ok',
      nowMs,
    );
  }
  return condition(
    CONDITION_AVAILABLE,
    'Unknown',
    'ManagedClusterLeaseUpdateStopped',
    'Registration agent stopped updating its lease.',
    nowMs,
  );
}

/** A ManagedClusterAddOn (cluster-proxy, managed-serviceaccount) in the cluster namespace, reported Available. */
export function managedClusterAddOn(cluster: string, addon: string, nowMs: number): KubeObject {
  return {
    apiVersion: 'addon.open-cluster-management.io/v1alpha1',
    kind: 'ManagedClusterAddOn',
    metadata: { name: addon, namespace: cluster },
    spec: { installNamespace: AGENT_ADDON_NAMESPACE },
    status: {
      namespace: AGENT_ADDON_NAMESPACE,
      conditions: [
        condition('Available', 'True', 'ManagedClusterAddOnLeaseUpdated', `${addon} add-on is available.`, nowMs),
      ],
    },
  };
}

interface ClusterVersionView {
  spec?: { channel?: string };
  status?: {
    desired?: { version?: string; image?: string; url?: string; channels?: string[] };
    history?: { version?: string; image?: string; state?: string; verified?: boolean }[];
    availableUpdates?: { version?: string; image?: string; url?: string; channels?: string[] }[] | null;
    conditions?: Condition[];
  };
}

/** A ManagedClusterInfo (named and namespaced after the cluster); its status comes from `managedClusterInfoStatus`. */
export function managedClusterInfo(cluster: string): KubeObject {
  return {
    apiVersion: 'internal.open-cluster-management.io/v1beta1',
    kind: 'ManagedClusterInfo',
    metadata: { name: cluster, namespace: cluster },
    spec: {},
  };
}

/**
 * What the foundation klusterlet's clusterinfo controller reports: the OpenShift distribution from the cluster's
 * ClusterVersion, refreshed every five minutes (it does not watch ClusterVersion).
 */
export function managedClusterInfoStatus(
  facts: ManagedClusterFacts,
  clusterVersion: KubeObject | undefined,
  nowMs: number,
): KubeObject['status'] {
  const view = (clusterVersion ?? {}) as ClusterVersionView;
  const history = view.status?.history ?? [];
  const updates = view.status?.availableUpdates ?? [];
  const failing = view.status?.conditions?.find((c) => c.type === 'Failing')?.status === 'True';
  return {
    clusterID: facts.clusterId,
    kubeVendor: 'OpenShift',
    cloudVendor: 'Other',
    version: facts.kubernetesVersion,
    conditions: [condition('ManagedClusterInfoSynced', 'True', 'ManagedClusterInfoSynced', 'Synced', nowMs)],
    distributionInfo: {
      type: 'OCP',
      ocp: {
        version: history.find((entry) => entry.state === 'Completed')?.version ?? '',
        desiredVersion: view.status?.desired?.version ?? '',
        desired: view.status?.desired ?? {},
        channel: view.spec?.channel ?? '',
        availableUpdates: updates.map((update) => update.version ?? ''),
        versionAvailableUpdates: updates,
        versionHistory: history.map(({ version, image, state, verified }) => ({ version, image, state, verified })),
        upgradeFailed: failing,
        managedClusterClientConfig: { url: facts.apiServerUrl, caBundle: facts.caData },
      },
    },
  };
}
