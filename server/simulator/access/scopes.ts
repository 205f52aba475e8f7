/**
 * OpenShift's scope authorizer: an OAuth access token's scopes limit what it may do before RBAC is asked (both must
 * allow). No scopes (a service account, a certificate) or `user:full` limit nothing. Otherwise each scope adds rules:
 * - `user:info`: get `users/~` (who am I);
 * - `user:check-access`: create self access reviews (what may I do);
 * - `user:list-projects` / `user:list-scoped-projects`: list and watch projects;
 * - `role:<cluster role>:<namespace|*>[:!]`: that ClusterRole's rules in that namespace (every namespace and the
 *   cluster scope with `*`); without the trailing `!`, never the escalating resources (secrets, tokens, RBAC writes).
 * Every scoped token may also read discovery (`/api`, `/apis`, `/version`, `/.well-known`). Unknown scopes add nothing.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { ObjectStore } from '../store';
import { nonResourceRuleAllows, resourceRuleAllows, type PolicyRule } from './policy-rules';
import type { AccessAttributes, Decision, ResourceAttributes } from './rbac';

const DISCOVERY: PolicyRule = {
  verbs: ['get', 'head'],
  nonResourceURLs: [
    '/',
    '/version',
    '/version/*',
    '/api',
    '/api/*',
    '/apis',
    '/apis/*',
    '/oapi',
    '/oapi/*',
    '/openapi/v2',
    '/openapi/v3',
    '/openapi/v3/*',
    '/.well-known',
    '/.well-known/*',
  ],
};

const FIXED: Readonly<Record<string, readonly PolicyRule[]>> = {
  'user:info': [{ verbs: ['get'], apiGroups: ['user.openshift.io'], resources: ['users'], resourceNames: ['~'] }],
  'user:check-access': [
    {
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io', 'authorization.openshift.io'],
      resources: ['selfsubjectaccessreviews'],
    },
    {
      verbs: ['create'],
      apiGroups: ['authorization.openshift.io'],
      resources: ['selfsubjectrulesreviews', 'subjectaccessreviews'],
    },
  ],
  'user:list-projects': [
    { verbs: ['get', 'list', 'watch'], apiGroups: ['project.openshift.io'], resources: ['projects'] },
  ],
  'user:list-scoped-projects': [
    { verbs: ['list', 'watch'], apiGroups: ['project.openshift.io'], resources: ['projects'] },
  ],
};

/** What a role scope without `!` never grants (OpenShift's escalating scope resources). */
const ESCALATING: readonly { group: string; resource: string }[] = [
  { group: '', resource: 'secrets' },
  { group: 'image.openshift.io', resource: 'imagestreams/secrets' },
  { group: 'oauth.openshift.io', resource: 'oauthauthorizetokens' },
  { group: 'oauth.openshift.io', resource: 'oauthaccesstokens' },
  { group: 'rbac.authorization.k8s.io', resource: 'roles' },
  { group: 'rbac.authorization.k8s.io', resource: 'rolebindings' },
  { group: 'rbac.authorization.k8s.io', resource: 'clusterroles' },
  { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings' },
];

function escalating(attrs: ResourceAttributes): boolean {
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return ESCALATING.some((e) => e.group === attrs.group && (e.resource === resource || e.resource === attrs.resource));
}

function roleScopeAllows(store: ObjectStore, scope: string, attrs: AccessAttributes): boolean {
  const parts = scope.split(':');
  const wellFormed = parts[0] === 'role' && (parts.length === 3 || (parts.length === 4 && parts[3] === '!'));
  if (!wellFormed) return false;
  const [, roleName, namespace] = parts;
  const escalate = parts.length === 4;
  type Role = KubeObject & { rules?: PolicyRule[] };
  const rules = (store.get('clusterroles', undefined, roleName)?.object as Role | undefined)?.rules ?? [];
  if ('nonResource' in attrs) {
    return namespace === '*' && rules.some((rule) => nonResourceRuleAllows(rule, attrs.nonResource));
  }
  if (namespace !== '*' && attrs.resource.namespace !== namespace) return false;
  if (!escalate && escalating(attrs.resource)) return false;
  return rules.some((rule) => resourceRuleAllows(rule, attrs.resource));
}

function scopeAllows(store: ObjectStore, scope: string, attrs: AccessAttributes): boolean {
  if (scope === 'user:full') return true;
  if (scope.startsWith('role:')) return roleScopeAllows(store, scope, attrs);
  const rules = FIXED[scope] ?? [];
  return 'resource' in attrs
    ? rules.some((rule) => resourceRuleAllows(rule, attrs.resource))
    : rules.some((rule) => nonResourceRuleAllows(rule, attrs.nonResource));
}

/** Whether the scopes let the request on to RBAC; a denial carries OpenShift's reason. */
export function scopeDecision(
  store: ObjectStore,
  scopes: readonly string[] | undefined,
  attrs: AccessAttributes,
): Decision {
  if (scopes === undefined) return { allowed: true, reason: '' };
  const discovery = 'nonResource' in attrs && nonResourceRuleAllows(DISCOVERY, attrs.nonResource);
  if (discovery) return { allowed: true, reason: '' };
  if (scopes.some((scope) => scopeAllows(store, scope, attrs))) return { allowed: true, reason: '' };
  return { allowed: false, reason: `scopes [${scopes.join(' ')}] prevent this action` };
}
