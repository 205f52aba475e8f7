/**
 * Kubernetes RBAC evaluation over the RBAC objects stored in an embedded cluster (ClusterRoles, ClusterRoleBindings,
 * Roles, RoleBindings) plus OpenShift's user.openshift.io Groups, as the API server's authorizer does it: a request
 * is allowed when any rule of any role bound to the user, one of the user's groups, or a Group object listing the
 * user, matches. Token scopes (user:info, user:check-access, role:…, see scopes.ts) narrow what an OAuth token may
 * do, as in OpenShift.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { ObjectStore } from '../store';
import { nonResourceRuleAllows, resourceRuleAllows, type PolicyRule } from './policy-rules';
import { scopeDecision } from './scopes';

/** Who is asking: what TokenReview and SubjectAccessReview carry. */
export interface UserInfo {
  name: string;
  groups: string[];
  /** OAuth token scopes; undefined for a service account or certificate identity (full access of its roles). */
  scopes?: string[];
}

/** A resource request, as `spec.resourceAttributes` of a SubjectAccessReview. */
export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  name?: string;
  namespace?: string;
}

/** A non-resource request (`/metrics`, `/healthz`), as `spec.nonResourceAttributes`. */
export interface NonResourceAttributes {
  verb: string;
  path: string;
}

/** What an authorization decision is asked about. */
export type AccessAttributes = { resource: ResourceAttributes } | { nonResource: NonResourceAttributes };

/** The decision with the reason a SubjectAccessReview reports. */
export interface Decision {
  allowed: boolean;
  reason: string;
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

interface Binding {
  roleRef: { kind: string; name: string };
  subjects?: Subject[];
  namespace?: string;
  name: string;
}

/**
 * The name RBAC checks for a request, as the API server's RequestInfo derives it: the name segment of the path as
 * written (a proxy's `scheme:name:port` included), and for a list or watch without one, the name an exact
 * `metadata.name` field selector asks for (so `resourceNames` can grant watching one object).
 */
export function authorizationName(
  verb: string,
  pathName: string | undefined,
  fieldSelector: string | null,
): string | undefined {
  if (pathName !== undefined || (verb !== 'list' && verb !== 'watch') || !fieldSelector) return pathName;
  for (const term of fieldSelector.split(',')) {
    const exact = /^\s*metadata\.name\s*==?\s*([^\s=!]+)\s*$/.exec(term);
    if (exact) return exact[1];
  }
  return undefined;
}

function userGroups(store: ObjectStore, user: UserInfo): Set<string> {
  const groups = new Set(user.groups);
  for (const entry of store.list('groups')) {
    const members = (entry.object as KubeObject & { users?: string[] }).users ?? [];
    if (members.includes(user.name)) groups.add(entry.object.metadata.name);
  }
  return groups;
}

function subjectMatches(subject: Subject, user: UserInfo, groups: ReadonlySet<string>): boolean {
  switch (subject.kind) {
    case 'User':
      return subject.name === user.name;
    case 'Group':
      return groups.has(subject.name);
    case 'ServiceAccount':
      return user.name === `system:serviceaccount:${subject.namespace}:${subject.name}`;
    default:
      return false;
  }
}

function bindingOf(object: KubeObject): Binding {
  const { roleRef, subjects } = object as unknown as Binding;
  return { roleRef, subjects, namespace: object.metadata.namespace, name: object.metadata.name };
}

function rulesOf(store: ObjectStore, binding: Binding): PolicyRule[] {
  const role =
    binding.roleRef.kind === 'ClusterRole'
      ? store.get('clusterroles', undefined, binding.roleRef.name)
      : store.get('roles', binding.namespace, binding.roleRef.name);
  return (role?.object as (KubeObject & { rules?: PolicyRule[] }) | undefined)?.rules ?? [];
}

function describe(binding: Binding, kind: 'ClusterRoleBinding' | 'RoleBinding'): string {
  const where = binding.namespace
    ? ` of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${binding.subjects?.map((s) => `${s.kind} "${s.name}"`).join(', ')} in namespace "${binding.namespace}"`
    : ` of ${binding.roleRef.kind} "${binding.roleRef.name}"`;
  return `RBAC: allowed by ${kind} "${binding.name}"${where}`;
}

/** Decides whether `user` may do `attrs` in the cluster whose RBAC objects live in `store`. */
export function authorize(store: ObjectStore, user: UserInfo, attrs: AccessAttributes): Decision {
  const scoped = scopeDecision(store, user.scopes, attrs);
  if (!scoped.allowed) return scoped;
  const groups = userGroups(store, user);
  if (groups.has('system:masters')) return { allowed: true, reason: 'allowed by system:masters' };
  const allows = (rule: PolicyRule) =>
    'resource' in attrs ? resourceRuleAllows(rule, attrs.resource) : nonResourceRuleAllows(rule, attrs.nonResource);
  for (const entry of store.list('clusterrolebindings')) {
    const binding = bindingOf(entry.object);
    if (!binding.subjects?.some((subject) => subjectMatches(subject, user, groups))) continue;
    if (rulesOf(store, binding).some(allows)) return { allowed: true, reason: describe(binding, 'ClusterRoleBinding') };
  }
  const namespace = 'resource' in attrs ? attrs.resource.namespace : undefined;
  if (namespace) {
    for (const entry of store.list('rolebindings', namespace)) {
      const binding = bindingOf(entry.object);
      if (!binding.subjects?.some((subject) => subjectMatches(subject, user, groups))) continue;
      // A RoleBinding grants a ClusterRole's rules only inside its namespace, and never non-resource URLs.
      if (rulesOf(store, binding).some(allows)) return { allowed: true, reason: describe(binding, 'RoleBinding') };
    }
  }
  return { allowed: false, reason: '' };
}
