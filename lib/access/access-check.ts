/**
 * What a viewer must be allowed to do on a cluster to see a piece of its health, as SubjectAccessReview
 * resource attributes. Pure: the server asks the cluster, this module only says what to ask and how to word it.
 */
import { RESOURCES, resourceForKind, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import type { ObjectRefDto } from '@/lib/api/dto';
import type { ResourceNeed } from '@/lib/health/types';

/** One question for the authorizer: may the viewer `verb` this resource (in this namespace, by this name)? */
export interface AccessCheck {
  verb: 'get' | 'list';
  group: string;
  resource: string;
  namespace?: string;
  name?: string;
}

/** The authorizer's answers: true when the check is allowed. Unknown checks must answer false (fail closed). */
export type AccessAnswers = (check: AccessCheck) => boolean;

/** Everything, at once: a viewer allowed this (cluster-reader and above) needs no finer question. */
export const READ_EVERYTHING: readonly AccessCheck[] = [
  { verb: 'get', group: '*', resource: '*' },
  { verb: 'list', group: '*', resource: '*' },
];

/** `get clusterversions/version`: who may read the cluster's version, history and update state. */
export const CLUSTER_VERSION_ACCESS: AccessCheck = {
  verb: 'get',
  group: 'config.openshift.io',
  resource: 'clusterversions',
  name: 'version',
};

/** What cluster-wide metrics (a detector without watched resources, a chart, alerts) need: listing every pod. */
export const CLUSTER_METRICS_ACCESS: AccessCheck = { verb: 'list', group: '', resource: 'pods' };

/** A stable key for caches and de-duplication. */
export function checkKey(check: AccessCheck): string {
  return [check.verb, check.group, check.resource, check.namespace ?? '', check.name ?? ''].join('|');
}

/** The checks without duplicates, in first-seen order. */
export function uniqueChecks(checks: Iterable<AccessCheck>): AccessCheck[] {
  const seen = new Map<string, AccessCheck>();
  for (const check of checks) if (!seen.has(checkKey(check))) seen.set(checkKey(check), check);
  return [...seen.values()];
}

/** `get` on one referenced object; undefined when the kind is unknown (such evidence cannot be authorized: hidden). */
export function accessForRef(ref: ObjectRefDto): AccessCheck | undefined {
  const resource = resourceForKind(ref.kind);
  if (!resource) return undefined;
  const info: ResourceInfo = RESOURCES[resource];
  return {
    verb: 'get',
    group: info.group,
    resource,
    name: ref.name,
    ...(info.namespaced && ref.namespace ? { namespace: ref.namespace } : {}),
  };
}

/** `list` on what a detector reads (a resource, optionally in one namespace). */
export function accessForNeed(need: Pick<ResourceNeed, 'resource' | 'namespace'>): AccessCheck {
  const info: ResourceInfo = RESOURCES[need.resource as ResourceName];
  return {
    verb: 'list',
    group: info.group,
    resource: need.resource,
    ...(info.namespaced && need.namespace ? { namespace: need.namespace } : {}),
  };
}

/** The check for one declared input: `get` on a named object, else `list` on the resource (in its namespace). */
export function accessForDeclaredNeed(need: Pick<ResourceNeed, 'resource' | 'namespace' | 'name'>): AccessCheck {
  return need.name ? { ...accessForNeed(need), verb: 'get', name: need.name } : accessForNeed(need);
}

/**
 * How the page words missing access without naming any object: `get clusterversions.config.openshift.io`,
 * `list pods`. Names and namespaces are left out because they would name objects the viewer may not read.
 */
export function describeKind(check: AccessCheck): string {
  return `${check.verb} ${check.group ? `${check.resource}.${check.group}` : check.resource}`;
}

/** How the page words a missing permission: `get clusterversions.config.openshift.io "version"`, `list pods in openshift-catalogd`. */
export function describeAccess(check: AccessCheck): string {
  const resource = check.group ? `${check.resource}.${check.group}` : check.resource;
  const name = check.name ? ` "${check.name}"` : '';
  const where = check.namespace ? ` in namespace ${check.namespace}` : '';
  return `${check.verb} ${resource}${name}${where}`;
}
