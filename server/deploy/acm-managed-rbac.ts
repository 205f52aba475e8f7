/**
 * The read-only RBAC an ACM hub distributes to its managed clusters for the dashboard, derived from deploy/openshift
 * (its one source): the ClusterRoles and Roles bound there to the dashboard's service account, with only the read
 * verbs, bound to the managed-serviceaccount's ServiceAccount on each managed cluster and wrapped in a
 * ManifestWorkReplicaSet over the `update-health` Placement. `npm run generate:acm-rbac` writes it to
 * deploy/acm/managed-cluster-rbac.yaml; a test fails when the two drift apart.
 */
import { AGENT_ADDON_NAMESPACE, MANAGED_SERVICE_ACCOUNT } from '@/lib/acm/ocm-names';
import type { Manifest } from './rendered-manifests';

/** The verbs a managed cluster grants the dashboard: reading, nothing else. */
export const READ_VERBS: readonly string[] = ['get', 'list', 'watch'];
/** Where the generated ManifestWorkReplicaSet lives, relative to the repository root. */
export const ACM_MANAGED_RBAC_PATH = 'deploy/acm/managed-cluster-rbac.yaml';
/** The Placement (in the dashboard's namespace) selecting the clusters the dashboard watches. */
export const ACM_PLACEMENT = 'update-health';

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}
type Role = Manifest & { rules: Rule[] };
type Binding = Manifest & {
  roleRef: { apiGroup: string; kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
};

/**
 * Whether a rule grants only SubjectAccessReviews: creating one asks the cluster's authorizer and stores nothing, and
 * per-user visibility asks each managed cluster that way, through cluster-proxy, as the managed service account.
 */
export function isReviewRule(rule: { apiGroups?: string[]; resources?: string[] }): boolean {
  return (
    (rule.apiGroups ?? []).every((group) => group === 'authorization.k8s.io') &&
    (rule.resources ?? []).length > 0 &&
    (rule.resources ?? []).every((resource) => resource === 'subjectaccessreviews')
  );
}

function readOnly(rules: readonly Rule[]): Rule[] {
  return rules.flatMap((rule) => {
    const verbs = rule.verbs.filter((verb) => READ_VERBS.includes(verb) || (verb === 'create' && isReviewRule(rule)));
    return verbs.length ? [{ ...rule, verbs }] : [];
  });
}

/**
 * Managed-side names: `update-health-managed-*`, so a cluster that also runs deploy/openshift keeps its own
 * `update-health-*` roles and bindings (same names would make the work agent rewrite their subjects).
 */
export function managedName(name: string): string {
  return name.replace(/^update-health-/, 'update-health-managed-');
}

function meta(object: Manifest): Manifest['metadata'] {
  const { namespace } = object.metadata;
  const name = managedName(object.metadata.name);
  return namespace ? { name, namespace } : { name };
}

/**
 * The ClusterRoles, Roles and bindings a managed cluster needs, from rendered deploy/openshift manifests: every role
 * bound to `account` (namespace/name), reduced to read verbs and bound to the managed service account instead.
 */
export function managedClusterRbac(openshift: readonly Manifest[], account: { namespace: string; name: string }) {
  const isAccount = (s: { kind: string; name: string; namespace?: string }) =>
    s.kind === 'ServiceAccount' && s.name === account.name && s.namespace === account.namespace;
  const bindings = openshift.filter(
    (m): m is Binding =>
      (m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding') && ((m as Binding).subjects ?? []).some(isAccount),
  );
  const out: Manifest[] = [];
  for (const binding of bindings) {
    const role = openshift.find(
      (m): m is Role =>
        m.kind === binding.roleRef.kind &&
        m.metadata.name === binding.roleRef.name &&
        (m.kind === 'ClusterRole' || m.metadata.namespace === binding.metadata.namespace),
    );
    if (!role) throw new Error(`${binding.kind} ${binding.metadata.name}: ${binding.roleRef.name} is not rendered`);
    const rules = readOnly(role.rules);
    if (!rules.length) continue;
    const ours = meta(role);
    const known = out.some(
      (m) => m.kind === role.kind && m.metadata.name === ours.name && m.metadata.namespace === ours.namespace,
    );
    if (!known) out.push({ apiVersion: role.apiVersion, kind: role.kind, metadata: ours, rules });
    out.push({
      apiVersion: binding.apiVersion,
      kind: binding.kind,
      metadata: meta(binding),
      roleRef: { ...binding.roleRef, name: managedName(binding.roleRef.name) },
      subjects: [{ kind: 'ServiceAccount', name: MANAGED_SERVICE_ACCOUNT, namespace: AGENT_ADDON_NAMESPACE }],
    });
  }
  return out;
}

/** The ManifestWorkReplicaSet that applies `managedClusterRbac` on every cluster of the Placement. */
export function managedRbacWork(
  openshift: readonly Manifest[],
  account: { namespace: string; name: string },
): Manifest {
  return {
    apiVersion: 'work.open-cluster-management.io/v1alpha1',
    kind: 'ManifestWorkReplicaSet',
    metadata: { name: 'update-health-reader', namespace: account.namespace },
    spec: {
      placementRefs: [{ name: ACM_PLACEMENT }],
      manifestWorkTemplate: {
        deleteOption: { propagationPolicy: 'Foreground' },
        workload: { manifests: managedClusterRbac(openshift, account) },
      },
    },
  };
}
