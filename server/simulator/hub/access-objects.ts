/**
 * How the hub hands out access to a managed cluster: the managed-serviceaccount's ManagedServiceAccount, its token
 * Secret and the ClusterProfile syncer's copy, and the ClusterProfile whose access provider names cluster-proxy.
 * Shapes follow open-cluster-management-io/managed-serviceaccount and kubernetes-sigs/cluster-inventory-api.
 */
import type { Condition, KubeObject } from '@/lib/k8s/types';
import { iso } from '../objects/time';
import { condition } from './hub-objects';
import {
  LABEL_CLUSTER_MANAGER,
  LABEL_CLUSTER_NAME,
  LABEL_IS_MANAGED_SERVICE_ACCOUNT,
  LABEL_PROFILE_CLUSTERSET,
  LABEL_SYNC_TO_CLUSTER_PROFILE,
  LABEL_SYNCED_FROM,
  MANAGED_SERVICE_ACCOUNT,
  OCM_CLUSTER_MANAGER,
} from '@/lib/acm/ocm-names';

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
