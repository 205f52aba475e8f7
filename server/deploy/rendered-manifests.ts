/**
 * Test support: deploy/openshift as `oc apply -k` sends it, and what its RBAC grants one service account, read the way
 * the API server's authorizer reads it (a ClusterRoleBinding grants everywhere, a RoleBinding only in its namespace).
 */
import { execFileSync } from 'node:child_process';
import { loadAll } from 'js-yaml';

/** A rendered object, as far as these tests look at it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** One permission: on a resource (cluster-wide when namespace is undefined; any name when names is), or a URL. */
export type Grant = ResourceGrant | { nonResourceURL: string; verbs: string[] };

/** A permission on a resource (or `resource/subresource`). */
export interface ResourceGrant {
  group: string;
  resource: string;
  verbs: string[];
  namespace?: string;
  names?: string[];
}

/** Whether a grant is on a resource (not a non-resource URL). */
export function isResourceGrant(grant: Grant): grant is ResourceGrant {
  return 'resource' in grant;
}

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}
interface Binding extends Manifest {
  roleRef: { kind: string; name: string };
  subjects?: { kind: string; name: string; namespace?: string }[];
}

/** `kubectl kustomize deploy/openshift`, parsed. */
export function renderOpenShiftManifests(): Manifest[] {
  return loadAll(execFileSync('kubectl', ['kustomize', 'deploy/openshift'], { encoding: 'utf8' })) as Manifest[];
}

/** The dashboard's service account in rendered manifests: the one its Deployment runs as. */
export function dashboardAccount(rendered: readonly Manifest[]): { namespace: string; name: string } {
  const deployment = rendered.find((m) => m.kind === 'Deployment' && m.metadata.name === 'update-health') as
    (Manifest & { spec: { template: { spec: { serviceAccountName: string } } } }) | undefined;
  if (!deployment?.metadata.namespace) throw new Error('no update-health Deployment in the rendered manifests');
  return { namespace: deployment.metadata.namespace, name: deployment.spec.template.spec.serviceAccountName };
}

/** `kubectl kustomize deploy/acm`, parsed: deploy/openshift plus the hub's objects. */
export function renderAcmManifests(): Manifest[] {
  return loadAll(execFileSync('kubectl', ['kustomize', 'deploy/acm'], { encoding: 'utf8' })) as Manifest[];
}

/** Everything the rendered bindings grant service account namespace/name, one entry per group and resource. */
export function accountGrants(rendered: readonly Manifest[], namespace: string, name: string): Grant[] {
  const grants: Grant[] = [];
  const isAccount = (s: { kind: string; name: string; namespace?: string }) =>
    s.kind === 'ServiceAccount' && s.name === name && s.namespace === namespace;
  const bindings = rendered.filter(
    (m): m is Binding =>
      (m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding') && ((m as Binding).subjects ?? []).some(isAccount),
  );
  for (const binding of bindings) {
    const role = rendered.find(
      (m) =>
        m.kind === binding.roleRef.kind &&
        m.metadata.name === binding.roleRef.name &&
        (m.kind === 'ClusterRole' || m.metadata.namespace === binding.metadata.namespace),
    );
    if (!role) {
      const { kind, name: roleName } = binding.roleRef;
      throw new Error(`${binding.kind} ${binding.metadata.name} refers to ${kind} ${roleName}, which is not rendered`);
    }
    const where = binding.kind === 'RoleBinding' ? binding.metadata.namespace : undefined;
    for (const rule of (role as Manifest & { rules: Rule[] }).rules) {
      const verbs = [...rule.verbs].sort();
      // A RoleBinding never grants non-resource URLs.
      if (where === undefined) {
        for (const url of rule.nonResourceURLs ?? []) grants.push({ nonResourceURL: url, verbs });
      }
      for (const group of rule.apiGroups ?? []) {
        for (const resource of rule.resources ?? []) {
          grants.push({
            group,
            resource,
            verbs,
            ...(where === undefined ? {} : { namespace: where }),
            ...(rule.resourceNames?.length ? { names: [...rule.resourceNames].sort() } : {}),
          });
        }
      }
    }
  }
  return grants;
}
