/**
 * The objects an ACM / Open Cluster Management hub keeps for each managed cluster, shaped like the upstream
 * controllers write them (registration, cluster-proxy, managed-serviceaccount and its ClusterProfile syncer).
 * Names, labels and keys follow open-cluster-management-io/{api,cluster-proxy,managed-serviceaccount} and
 * kubernetes-sigs/cluster-inventory-api.
 */
import type { Condition, KubeObject } from '@/lib/k8s/types';
import { iso } from '../objects/time';

/** The ClusterProfile cluster manager (and access provider) name OCM uses. */
export const OCM_CLUSTER_MANAGER = 'open-cluster-management';
/** Namespace on each managed cluster where managed-serviceaccount creates its ServiceAccounts. */
export const AGENT_ADDON_NAMESPACE = 'open-cluster-management-agent-addon';
/** Where cluster-proxy runs on the hub (its user-server Service lives here). */
export const PROXY_ADDON_NAMESPACE = 'open-cluster-management-addon';
/** The ManagedServiceAccount the dashboard reaches each managed cluster with. */
export const MANAGED_SERVICE_ACCOUNT = 'update-health';

export const LABEL_CLUSTER_MANAGER = 'x-k8s.io/cluster-manager';
export const LABEL_CLUSTER_NAME = 'open-cluster-management.io/cluster-name';
export const LABEL_PROFILE_CLUSTERSET = 'multicluster.x-k8s.io/clusterset';
export const LABEL_CLUSTERSET = 'cluster.open-cluster-management.io/clusterset';
export const LABEL_IS_MANAGED_SERVICE_ACCOUNT = 'authentication.open-cluster-management.io/is-managed-serviceaccount';
export const LABEL_SYNC_TO_CLUSTER_PROFILE = 'authentication.open-cluster-management.io/sync-to-clusterprofile';
export const LABEL_SYNCED_FROM = 'authentication.open-cluster-management.io/synced-from';
/** ManagedCluster condition the registration controller keeps from the klusterlet's lease. */
export const CONDITION_AVAILABLE = 'ManagedClusterConditionAvailable';

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

function condition(type: string, status: string, reason: string, message: string, nowMs: number): Condition {
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

/** The ManagedClusterSetBinding of `clusterSet` into `namespace` (OCM requires the binding to be named after the set). */
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

/** The dashboard's ManagedServiceAccount in a cluster namespace, synced to the ClusterProfile namespace. */
export function managedServiceAccount(cluster: string, validitySeconds: number): KubeObject {
  return {
    apiVersion: 'authentication.open-cluster-management.io/v1beta1',
    kind: 'ManagedServiceAccount',
    metadata: {
      name: MANAGED_SERVICE_ACCOUNT,
      namespace: cluster,
      labels: { [LABEL_SYNC_TO_CLUSTER_PROFILE]: 'true' },
    },
    spec: { rotation: { enabled: true, validity: `${validitySeconds}s` } },
  };
}

/** The status the managed-serviceaccount agent reports after a token refresh. */
export function managedServiceAccountStatus(refreshedMs: number, expiresMs: number): KubeObject['status'] {
  return {
    conditions: [
      condition('SecretCreated', 'True', 'SecretCreated', '', refreshedMs),
      condition('TokenReported', 'True', 'TokenReported', '', refreshedMs),
    ],
    expirationTimestamp: iso(expiresMs),
    tokenSecretRef: { name: MANAGED_SERVICE_ACCOUNT, lastRefreshTimestamp: iso(refreshedMs) },
  };
}

function base64(text: string): string {
  return Buffer.from(text).toString('base64');
}

/** The token Secret the agent reports into the cluster namespace: named after the ManagedServiceAccount. */
export function tokenSecret(cluster: string, msaUid: string, token: string, caData: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: MANAGED_SERVICE_ACCOUNT,
      namespace: cluster,
      labels: { [LABEL_IS_MANAGED_SERVICE_ACCOUNT]: 'true' },
      ownerReferences: [
        {
          apiVersion: 'authentication.open-cluster-management.io/v1beta1',
          kind: 'ManagedServiceAccount',
          name: MANAGED_SERVICE_ACCOUNT,
          uid: msaUid,
        },
      ],
    },
    type: 'Opaque',
    data: { 'ca.crt': caData, token: base64(token) },
  };
}

/** The name of the syncer's copy of a token Secret in the ClusterProfile namespace: `<cluster>-<msa>`. */
export function syncedSecretName(cluster: string): string {
  return `${cluster}-${MANAGED_SERVICE_ACCOUNT}`;
}

/** The ClusterProfile credential syncer's copy of the token Secret, owned by the ClusterProfile. */
export function syncedTokenSecret(profile: KubeObject, source: KubeObject): KubeObject {
  const cluster = profile.metadata.name;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: syncedSecretName(cluster),
      namespace: profile.metadata.namespace,
      labels: { [LABEL_SYNCED_FROM]: `${cluster}-${MANAGED_SERVICE_ACCOUNT}` },
      ownerReferences: [
        {
          apiVersion: 'multicluster.x-k8s.io/v1alpha1',
          kind: 'ClusterProfile',
          name: cluster,
          uid: profile.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
    type: 'Opaque',
    data: { ...(source.data as Record<string, string>) },
  };
}

/** A ClusterProfile (spec and labels) in a namespace bound to the cluster's set. */
export function clusterProfile(cluster: string, namespace: string, clusterSet: string): KubeObject {
  return {
    apiVersion: 'multicluster.x-k8s.io/v1alpha1',
    kind: 'ClusterProfile',
    metadata: {
      name: cluster,
      namespace,
      labels: {
        [LABEL_CLUSTER_MANAGER]: OCM_CLUSTER_MANAGER,
        [LABEL_CLUSTER_NAME]: cluster,
        [LABEL_PROFILE_CLUSTERSET]: clusterSet,
      },
    },
    spec: { displayName: cluster, clusterManager: { name: OCM_CLUSTER_MANAGER } },
  };
}

/** ClusterProfile status: the cluster-proxy access provider and the health OCM mirrors from the ManagedCluster. */
export function clusterProfileStatus(
  cluster: string,
  proxy: { url: string; caData: string },
  available: Condition | undefined,
  kubernetesVersion: string,
  nowMs: number,
): KubeObject['status'] {
  const healthy = available?.status ?? 'Unknown';
  return {
    accessProviders: [
      {
        name: OCM_CLUSTER_MANAGER,
        cluster: {
          server: `${proxy.url}/${cluster}`,
          'certificate-authority-data': proxy.caData,
          extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { clusterName: cluster } }],
        },
      },
    ],
    conditions: [
      condition('ControlPlaneHealthy', healthy, available?.reason ?? 'Unknown', available?.message ?? '', nowMs),
      condition('Joined', 'True', 'ManagedClusterJoined', 'Managed cluster joined', nowMs),
    ],
    version: { kubernetes: kubernetesVersion },
  };
}
