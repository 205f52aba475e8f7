/**
 * One workload of a hosted control-plane namespace (DEPLOYMENTS.md): `component` says whether the CPO renders a
 * ControlPlaneComponent for it (CNO and CSO operands do not have one).
 */
export interface HcpWorkload {
  name: string;
  containers: string[];
  kind: 'Deployment' | 'StatefulSet';
  component: boolean;
}

const D = (name: string, containers: string[] = [name], component = true): HcpWorkload => ({
  name,
  containers,
  kind: 'Deployment',
  component,
});

/**
 * The workloads of an AWS hosted control plane with OVN-Kubernetes, in the order the control-plane operator rolls
 * them during an update (DEPLOYMENTS.md sections 1-2; container counts follow the lab listing).
 */
export const HCP_WORKLOADS: readonly HcpWorkload[] = [
  D('control-plane-operator', ['control-plane-operator'], false),
  { name: 'etcd', containers: ['etcd', 'etcd-metrics', 'healthz'], kind: 'StatefulSet', component: true },
  D('kube-apiserver', ['kube-apiserver', 'audit-logs', 'konnectivity-client', 'kas-bootstrap']),
  D('kube-controller-manager'),
  D('kube-scheduler'),
  D('cluster-network-operator'),
  D('ingress-operator', ['ingress-operator', 'konnectivity-proxy']),
  D('cluster-storage-operator'),
  D('cloud-network-config-controller', ['controller'], false),
  D('openshift-apiserver', ['openshift-apiserver', 'audit-logs', 'konnectivity-proxy']),
  D('openshift-oauth-apiserver', ['openshift-oauth-apiserver', 'audit-logs']),
  D('oauth-openshift', ['oauth-server', 'audit-logs']),
  D('openshift-controller-manager'),
  D('openshift-route-controller-manager'),
  D('cluster-policy-controller'),
  D('hosted-cluster-config-operator'),
  D('cluster-version-operator'),
  D('control-plane-pki-operator'),
  D('capi-provider', ['manager']),
  D('cluster-api', ['manager']),
  D('cluster-autoscaler'),
  D('aws-cloud-controller-manager'),
  D('cloud-credential-operator'),
  D('cluster-image-registry-operator', ['cluster-image-registry-operator', 'client-token-minter']),
  D('cluster-node-tuning-operator'),
  D('csi-snapshot-controller-operator'),
  D('csi-snapshot-controller', ['snapshot-controller'], false),
  D('dns-operator', ['dns-operator']),
  D('ignition-server'),
  D('ignition-server-proxy', ['haproxy']),
  D('konnectivity-agent'),
  D('machine-approver'),
  D('ovnkube-control-plane', ['ovnkube-cluster-manager', 'kube-rbac-proxy'], false),
  D('network-node-identity', ['approver'], false),
  D('multus-admission-controller', ['multus-admission-controller', 'kube-rbac-proxy'], false),
  D('aws-ebs-csi-driver-operator', ['aws-ebs-csi-driver-operator'], false),
  D('aws-ebs-csi-driver-controller', ['csi-driver', 'csi-provisioner', 'csi-attacher'], false),
  D('catalog-operator', ['catalog-operator', 'konnectivity-proxy']),
  D('olm-operator', ['olm-operator', 'konnectivity-proxy']),
  D('packageserver', ['packageserver', 'konnectivity-proxy']),
  D('certified-operators-catalog', ['registry']),
  D('community-operators-catalog', ['registry']),
  D('redhat-operators-catalog', ['registry']),
];

/**
 * HCP operators that read featuregates.config.openshift.io/cluster through library-go and the guest
 * ClusterOperator each one reports (CVO names them when they are not available).
 */
export const FEATURE_GATE_CONSUMERS: Readonly<Record<string, string>> = {
  'cluster-network-operator': 'network',
  'ingress-operator': 'ingress',
  'cluster-storage-operator': 'storage',
  'cloud-network-config-controller': 'network',
};
