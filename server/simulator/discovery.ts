import { RESOURCES, RESOURCE_NAMES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { SCALABLE_RESOURCES, SCALE_DISCOVERY } from './scale-subresource';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** Subresources served per resource, with their verbs. */
function subresources(resource: ResourceName, hasStatus: boolean): { name: string; verbs: string[] }[] {
  const out: { name: string; verbs: string[] }[] = [];
  if (hasStatus) out.push({ name: 'status', verbs: ['get', 'patch', 'update'] });
  if (resource === 'pods') {
    out.push({ name: 'log', verbs: ['get'] });
    out.push({ name: 'proxy', verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  }
  if (resource === 'services') out.push({ name: 'proxy', verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  if ((SCALABLE_RESOURCES as readonly string[]).includes(resource)) {
    out.push({ name: 'scale', verbs: ['get', 'patch', 'update'] });
  }
  return out;
}

/** `/version` body for a Kubernetes minor (e.g. 29 for OpenShift 4.16). */
export function versionInfo(minor: number): Record<string, string> {
  return {
    major: '1',
    minor: String(minor),
    gitVersion: `v1.${minor}.10+67d3387`,
    gitCommit: '67d3387e5e2d4a1f1f8d0ad2b28f6a0c2e5c9a11',
    gitTreeState: 'clean',
    buildDate: '2026-10-30T12:00:00Z',
    goVersion: 'go1.21.13 X:strictfipsruntime',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** Whether a resource is served now (a custom resource once its CRD is installed); every one when absent. */
export type Served = (resource: ResourceName) => boolean;

/** Group/versions served, in discovery order (core first). */
export function groupVersions(served: Served = () => true): { group: string; version: string }[] {
  const seen = new Set<string>();
  const out: { group: string; version: string }[] = [];
  for (const name of RESOURCE_NAMES) {
    if (!served(name)) continue;
    const info: ResourceInfo = RESOURCES[name];
    const key = `${info.group}/${info.version}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ group: info.group, version: info.version });
    }
  }
  return out;
}

/** `/api` (APIVersions). */
export function coreVersions(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** `/apis` (APIGroupList). */
export function groupList(served: Served = () => true): unknown {
  // One entry per group even when its resources span versions (cluster.open-cluster-management.io v1 and v1beta2).
  const byGroup = new Map<string, { groupVersion: string; version: string }[]>();
  for (const { group, version } of groupVersions(served)) {
    if (group === '') continue;
    byGroup.set(group, [...(byGroup.get(group) ?? []), { groupVersion: `${group}/${version}`, version }]);
  }
  const groups = [...byGroup].map(([name, versions]) => ({ name, versions, preferredVersion: versions[0] }));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/** `/api/v1` or `/apis/<group>/<version>` (APIResourceList); undefined when not served. */
export function resourceList(
  group: string,
  version: string,
  hasStatus: (resource: ResourceName) => boolean,
  served: Served = () => true,
): unknown {
  const names = RESOURCE_NAMES.filter((name) => {
    const info: ResourceInfo = RESOURCES[name];
    return info.group === group && info.version === version && served(name);
  });
  if (!names.length) return undefined;
  const resources: unknown[] = [];
  for (const name of names) {
    const info: ResourceInfo = RESOURCES[name];
    const entry: Record<string, unknown> = {
      name,
      singularName: info.kind.toLowerCase(),
      namespaced: info.namespaced,
      kind: info.kind,
      verbs: ALL_VERBS,
    };
    if (info.shortNames.length) entry.shortNames = [...info.shortNames];
    resources.push(entry);
    for (const sub of subresources(name, hasStatus(name))) {
      if (sub.name === 'scale') {
        const scale = { name: `${name}/scale`, singularName: '', namespaced: info.namespaced, ...SCALE_DISCOVERY };
        resources.push({ ...scale, verbs: sub.verbs });
        continue;
      }
      resources.push({
        name: `${name}/${sub.name}`,
        singularName: '',
        namespaced: info.namespaced,
        kind: sub.name === 'status' ? info.kind : sub.name === 'log' ? 'Pod' : `${info.kind}ProxyOptions`,
        verbs: sub.verbs,
      });
    }
  }
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources,
  };
}
