/**
 * The API resources the product knows, keyed by plural name. The simulator serves exactly these (discovery,
 * routes, validation) and the watch layer builds its paths from the same table, so the two cannot drift.
 */
export const RESOURCES = {
  namespaces: { group: '', version: 'v1', kind: 'Namespace', namespaced: false, shortNames: ['ns'] },
  pods: { group: '', version: 'v1', kind: 'Pod', namespaced: true, shortNames: ['po'] },
  events: { group: '', version: 'v1', kind: 'Event', namespaced: true, shortNames: ['ev'] },
  nodes: { group: '', version: 'v1', kind: 'Node', namespaced: false, shortNames: ['no'] },
  services: { group: '', version: 'v1', kind: 'Service', namespaced: true, shortNames: ['svc'] },
  configmaps: { group: '', version: 'v1', kind: 'ConfigMap', namespaced: true, shortNames: ['cm'] },
  deployments: { group: 'apps', version: 'v1', kind: 'Deployment', namespaced: true, shortNames: ['deploy'] },
  poddisruptionbudgets: {
    group: 'policy',
    version: 'v1',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    shortNames: ['pdb'],
  },
  leases: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', namespaced: true, shortNames: [] },
  customresourcedefinitions: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
  },
  clusterversions: {
    group: 'config.openshift.io',
    version: 'v1',
    kind: 'ClusterVersion',
    namespaced: false,
    shortNames: [],
  },
  clusteroperators: {
    group: 'config.openshift.io',
    version: 'v1',
    kind: 'ClusterOperator',
    namespaced: false,
    shortNames: ['co'],
  },
  featuregates: { group: 'config.openshift.io', version: 'v1', kind: 'FeatureGate', namespaced: false, shortNames: [] },
  infrastructures: {
    group: 'config.openshift.io',
    version: 'v1',
    kind: 'Infrastructure',
    namespaced: false,
    shortNames: [],
  },
  machineconfigs: {
    group: 'machineconfiguration.openshift.io',
    version: 'v1',
    kind: 'MachineConfig',
    namespaced: false,
    shortNames: ['mc'],
  },
  machineconfigpools: {
    group: 'machineconfiguration.openshift.io',
    version: 'v1',
    kind: 'MachineConfigPool',
    namespaced: false,
    shortNames: ['mcp'],
  },
  clusterextensions: {
    group: 'olm.operatorframework.io',
    version: 'v1',
    kind: 'ClusterExtension',
    namespaced: false,
    shortNames: [],
  },
  clustercatalogs: {
    group: 'olm.operatorframework.io',
    version: 'v1',
    kind: 'ClusterCatalog',
    namespaced: false,
    shortNames: [],
  },
  hostedclusters: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    kind: 'HostedCluster',
    namespaced: true,
    shortNames: ['hc', 'hcs'],
  },
  nodepools: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    kind: 'NodePool',
    namespaced: true,
    shortNames: ['np', 'nps'],
  },
  hostedcontrolplanes: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    kind: 'HostedControlPlane',
    namespaced: true,
    shortNames: ['hcp', 'hcps'],
  },
  clusterroles: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    namespaced: false,
    shortNames: [],
  },
  clusterrolebindings: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    namespaced: false,
    shortNames: [],
  },
  roles: { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role', namespaced: true, shortNames: [] },
  rolebindings: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'RoleBinding',
    namespaced: true,
    shortNames: [],
  },
  groups: { group: 'user.openshift.io', version: 'v1', kind: 'Group', namespaced: false, shortNames: [] },
  controlplanecomponents: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    kind: 'ControlPlaneComponent',
    namespaced: true,
    shortNames: ['cpc', 'cpcs'],
  },
  secrets: { group: '', version: 'v1', kind: 'Secret', namespaced: true, shortNames: [] },
  // An ACM / Open Cluster Management hub: cluster inventory, cluster sets, add-ons and managed service accounts.
  managedclusters: {
    group: 'cluster.open-cluster-management.io',
    version: 'v1',
    kind: 'ManagedCluster',
    namespaced: false,
    shortNames: ['mcl', 'mcls'],
  },
  managedclustersets: {
    group: 'cluster.open-cluster-management.io',
    version: 'v1beta2',
    kind: 'ManagedClusterSet',
    namespaced: false,
    shortNames: ['mclset', 'mclsets'],
  },
  managedclustersetbindings: {
    group: 'cluster.open-cluster-management.io',
    version: 'v1beta2',
    kind: 'ManagedClusterSetBinding',
    namespaced: true,
    shortNames: ['mclsetbinding', 'mclsetbindings'],
  },
  clusterprofiles: {
    group: 'multicluster.x-k8s.io',
    version: 'v1alpha1',
    kind: 'ClusterProfile',
    namespaced: true,
    shortNames: [],
  },
  managedserviceaccounts: {
    group: 'authentication.open-cluster-management.io',
    version: 'v1beta1',
    kind: 'ManagedServiceAccount',
    namespaced: true,
    shortNames: [],
  },
  managedclusteraddons: {
    group: 'addon.open-cluster-management.io',
    version: 'v1alpha1',
    kind: 'ManagedClusterAddOn',
    namespaced: true,
    shortNames: ['mca', 'mcas'],
  },
  managedproxyconfigurations: {
    group: 'proxy.open-cluster-management.io',
    version: 'v1alpha1',
    kind: 'ManagedProxyConfiguration',
    namespaced: false,
    shortNames: [],
  },
  managedclusterinfos: {
    group: 'internal.open-cluster-management.io',
    version: 'v1beta1',
    kind: 'ManagedClusterInfo',
    namespaced: true,
    shortNames: [],
  },
} as const satisfies Record<string, ResourceInfo>;

/** Static facts about one resource type. `group` is '' for the core group. */
export interface ResourceInfo {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  shortNames: readonly string[];
}

/** Plural name of a known resource, e.g. `clusterversions`. */
export type ResourceName = keyof typeof RESOURCES;

/** All known resource names, in a stable order. */
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** `apiVersion` string of a resource (`v1`, `apps/v1`, `config.openshift.io/v1`). */
export function apiVersionOf(resource: ResourceName): string {
  const info: ResourceInfo = RESOURCES[resource];
  return info.group ? `${info.group}/${info.version}` : info.version;
}

/**
 * The collection path of a resource, optionally inside a namespace:
 * `/api/v1/namespaces/ns/pods`, `/apis/config.openshift.io/v1/clusterversions`.
 */
export function collectionPath(resource: ResourceName, namespace?: string): string {
  const info: ResourceInfo = RESOURCES[resource];
  const base = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  const ns = info.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${resource}`;
}

/** Looks a resource up by its kind (`ClusterVersion` → `clusterversions`). */
export function resourceForKind(kind: string): ResourceName | undefined {
  return RESOURCE_NAMES.find((name) => RESOURCES[name].kind === kind);
}
