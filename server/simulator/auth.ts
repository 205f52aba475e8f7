import { randomBytes } from 'node:crypto';
import type { Status } from '@/lib/k8s/types';
import { RESOURCES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { failure } from './errors';

/** The identities a simulated API server knows. */
export type Identity = 'admin' | 'reader' | 'restricted';

/** Bearer tokens per identity (random per process). */
export type Tokens = Record<Identity, string>;

/** User names as the authorizer prints them in 403 messages. */
export const USER_NAMES: Record<Identity, string> = {
  admin: 'kube:admin',
  reader: 'system:serviceaccount:openshift-update-health:reader',
  restricted: 'system:serviceaccount:openshift-update-health:restricted',
};

/** Resources the restricted identity may not read. */
const RESTRICTED_DENIED = new Set<ResourceName>(['pods', 'events', 'customresourcedefinitions']);

const READ_VERBS = new Set(['get', 'list', 'watch']);

let processTokens: Tokens | undefined;

/** Tokens shared by every simulated API server of this process. */
export function simulatorTokens(): Tokens {
  if (!processTokens) {
    const token = (identity: Identity) => `sim-${identity}-${randomBytes(18).toString('base64url')}`;
    processTokens = { admin: token('admin'), reader: token('reader'), restricted: token('restricted') };
  }
  return processTokens;
}

/** The identity of an `Authorization` header, or undefined (401). */
export function authenticate(tokens: Tokens, header: string | undefined): Identity | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  return (Object.keys(tokens) as Identity[]).find((identity) => tokens[identity] === match[1]);
}

/** 401 as the API server sends it. */
export function unauthorized(): Status {
  return failure(401, 'Unauthorized', 'Unauthorized');
}

/** What a request asks to do, for authorization. */
export interface Attributes {
  verb: string;
  resource: ResourceName;
  subresource?: string;
  name?: string;
  namespace?: string;
}

/** True when `identity` may do it: admin everything, reader all reads, restricted reads minus some types. */
export function allowed(identity: Identity, attributes: Attributes): boolean {
  if (identity === 'admin') return true;
  if (!READ_VERBS.has(attributes.verb)) return false;
  if (identity === 'restricted' && RESTRICTED_DENIED.has(attributes.resource)) return false;
  return true;
}

/** 403 with the RBAC authorizer's wording. */
export function forbidden(identity: Identity, attributes: Attributes): Status {
  const info: ResourceInfo = RESOURCES[attributes.resource];
  const qualified = info.group ? `${attributes.resource}.${info.group}` : attributes.resource;
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const subject = attributes.name ? `${qualified} "${attributes.name}"` : qualified;
  const scope = attributes.namespace ? `in the namespace "${attributes.namespace}"` : 'at the cluster scope';
  const message = `${subject} is forbidden: User "${USER_NAMES[identity]}" cannot ${attributes.verb} resource "${resource}" in API group "${info.group}" ${scope}`;
  const details: NonNullable<Status['details']> = { kind: attributes.resource };
  if (attributes.name) details.name = attributes.name;
  if (info.group) details.group = info.group;
  return failure(403, 'Forbidden', message, details);
}
