/**
 * Who a request to an embedded cluster comes from: the service-account tokens of this process (admin, the
 * dashboard's read-only reader, a restricted account) and access tokens issued by the cluster's OAuth server.
 * What they may do is RBAC's decision (access/rbac.ts); this file only authenticates and words the 403.
 */
import { randomBytes } from 'node:crypto';
import type { Status } from '@/lib/k8s/types';
import { failure } from './errors';
import { SERVICE_NAMESPACE } from './access/access-seed';
import type { OAuthTokenStore } from './access/oauth-tokens';
import type { ServiceAccountTokens } from './access/service-account-tokens';
import type { AccessAttributes, UserInfo } from './access/rbac';

/** The static identities a simulated API server knows. */
export type Identity = 'admin' | 'reader' | 'restricted';

/** Bearer tokens per identity (random per process). */
export type Tokens = Record<Identity, string>;

const serviceAccount = (name: string): UserInfo => ({
  name: `system:serviceaccount:${SERVICE_NAMESPACE}:${name}`,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${SERVICE_NAMESPACE}`, 'system:authenticated'],
});

/** The user behind each static identity, as TokenReview reports it. */
export const IDENTITY_USERS: Record<Identity, UserInfo> = {
  admin: { name: 'kube:admin', groups: ['system:cluster-admins', 'system:authenticated'] },
  reader: serviceAccount('reader'),
  restricted: serviceAccount('restricted'),
};

let processTokens: Tokens | undefined;

/** Tokens shared by every simulated API server of this process. */
export function simulatorTokens(): Tokens {
  if (!processTokens) {
    const token = (identity: Identity) => `sim-${identity}-${randomBytes(18).toString('base64url')}`;
    processTokens = { admin: token('admin'), reader: token('reader'), restricted: token('restricted') };
  }
  return processTokens;
}

/** The bearer token of an `Authorization` header. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

/**
 * The user a token stands for: a static identity, a bound service-account token the cluster issued, or a live
 * OAuth access token; undefined → 401.
 */
export function authenticateToken(
  tokens: Tokens,
  oauth: OAuthTokenStore,
  token: string,
  serviceAccountTokens?: ServiceAccountTokens,
): UserInfo | undefined {
  const identity = (Object.keys(tokens) as Identity[]).find((candidate) => tokens[candidate] === token);
  if (identity) return IDENTITY_USERS[identity];
  const serviceAccount = serviceAccountTokens?.lookup(token);
  if (serviceAccount) return serviceAccount;
  const grant = oauth.lookup(token);
  return grant
    ? { name: grant.user, groups: ['system:authenticated:oauth', 'system:authenticated'], scopes: grant.scopes }
    : undefined;
}

/** 401 as the API server sends it. */
export function unauthorized(): Status {
  return failure(401, 'Unauthorized', 'Unauthorized');
}

/** 403 with the RBAC authorizer's wording. */
export function forbidden(user: UserInfo, attributes: AccessAttributes): Status {
  if ('nonResource' in attributes) {
    return failure(
      403,
      'Forbidden',
      `forbidden: User "${user.name}" cannot ${attributes.nonResource.verb} path "${attributes.nonResource.path}"`,
      {},
    );
  }
  const { verb, group, resource, subresource, name, namespace } = attributes.resource;
  const qualified = group ? `${resource}.${group}` : resource;
  const subject = name ? `${qualified} "${name}"` : qualified;
  const scope = namespace ? `in the namespace "${namespace}"` : 'at the cluster scope';
  const message = `${subject} is forbidden: User "${user.name}" cannot ${verb} resource "${subresource ? `${resource}/${subresource}` : resource}" in API group "${group}" ${scope}`;
  const details: NonNullable<Status['details']> = { kind: resource };
  if (name) details.name = name;
  if (group) details.group = group;
  return failure(403, 'Forbidden', message, details);
}
