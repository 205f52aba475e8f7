/** Matching one RBAC PolicyRule against a request, as the Kubernetes RBAC authorizer does. */
import type { NonResourceAttributes, ResourceAttributes } from './rbac';

/** One rule of a Role or ClusterRole. */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

function matches(values: readonly string[] | undefined, value: string): boolean {
  return !!values && (values.includes('*') || values.includes(value));
}

/** Whether a rule grants a resource request (verb, group, resource or `resource/subresource`, resource name). */
export function resourceRuleAllows(rule: PolicyRule, attrs: ResourceAttributes): boolean {
  if (!matches(rule.verbs, attrs.verb) || !matches(rule.apiGroups, attrs.group)) return false;
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const resourceOk = (rule.resources ?? []).some(
    (resource) =>
      resource === '*' ||
      resource === combined ||
      (!attrs.subresource && resource === attrs.resource) ||
      (attrs.subresource !== undefined && resource === `*/${attrs.subresource}`),
  );
  if (!resourceOk) return false;
  return !rule.resourceNames?.length || (attrs.name !== undefined && rule.resourceNames.includes(attrs.name));
}

/** Whether a rule grants a non-resource URL (exact, or a prefix ending in `*`). */
export function nonResourceRuleAllows(rule: PolicyRule, attrs: NonResourceAttributes): boolean {
  if (!matches(rule.verbs, attrs.verb)) return false;
  return (rule.nonResourceURLs ?? []).some(
    (url) => url === '*' || url === attrs.path || (url.endsWith('*') && attrs.path.startsWith(url.slice(0, -1))),
  );
}
