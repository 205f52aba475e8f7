/**
 * Names, labels and conditions of ACM / Open Cluster Management hub objects, as open-cluster-management-io/{api,
 * cluster-proxy,managed-serviceaccount} and kubernetes-sigs/cluster-inventory-api define them: the one home the
 * embedded hub, the deploy manifests and the dashboard's hub discovery share.
 */

/** The ClusterProfile cluster manager (and access provider) name OCM uses. */
export const OCM_CLUSTER_MANAGER = 'open-cluster-management';
/** Namespace on each managed cluster where managed-serviceaccount creates its ServiceAccounts. */
export const AGENT_ADDON_NAMESPACE = 'open-cluster-management-agent-addon';
/** Where cluster-proxy runs on the hub (its user-server Service lives here). */
export const PROXY_ADDON_NAMESPACE = 'open-cluster-management-addon';
/** The ManagedServiceAccount the dashboard reaches each managed cluster with. */
export const MANAGED_SERVICE_ACCOUNT = 'update-health';

/** ClusterProfile label naming the cluster manager that owns it. */
export const LABEL_CLUSTER_MANAGER = 'x-k8s.io/cluster-manager';
/** Label OCM puts on objects of one managed cluster (its namespace's Secrets among them). */
export const LABEL_CLUSTER_NAME = 'open-cluster-management.io/cluster-name';
/** ClusterProfile label naming the cluster set it belongs to. */
export const LABEL_PROFILE_CLUSTERSET = 'multicluster.x-k8s.io/clusterset';
/** ManagedCluster label naming its ManagedClusterSet. */
export const LABEL_CLUSTERSET = 'cluster.open-cluster-management.io/clusterset';
/** Label of a token Secret the managed-serviceaccount add-on syncs. */
export const LABEL_IS_MANAGED_SERVICE_ACCOUNT = 'authentication.open-cluster-management.io/is-managed-serviceaccount';
/** ManagedServiceAccount label asking for its token to be synced beside the ClusterProfile. */
export const LABEL_SYNC_TO_CLUSTER_PROFILE = 'authentication.open-cluster-management.io/sync-to-clusterprofile';
/** Label of a token Secret synced for a ClusterProfile, naming where it came from. */
export const LABEL_SYNCED_FROM = 'authentication.open-cluster-management.io/synced-from';
/** ManagedCluster condition the registration controller keeps from the klusterlet's lease. */
export const CONDITION_AVAILABLE = 'ManagedClusterConditionAvailable';
