import { RESOURCES, RESOURCE_NAMES, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';

/** A request path resolved against the resource table. */
export type Route =
  | { type: 'version' }
  | { type: 'core-versions' }
  | { type: 'groups' }
  | { type: 'group'; group: string }
  | { type: 'resources'; group: string; version: string }
  | { type: 'sim'; action: string }
  | {
      type: 'resource';
      resource: ResourceName;
      namespace?: string;
      name?: string;
      /** `status`, `log` or `proxy`. */
      subresource?: string;
      /** For proxy: the target port from `name:port`, and the path after `/proxy`. */
      port?: number;
      proxyPath?: string;
      /** For proxy: the name segment as written (`https:thanos-querier:9091`), the name RBAC checks. */
      proxyTarget?: string;
    }
  | { type: 'not-found' };

function findResource(group: string, version: string, plural: string): ResourceName | undefined {
  return RESOURCE_NAMES.find((name) => {
    const info: ResourceInfo = RESOURCES[name];
    return name === plural && info.group === group && info.version === version;
  });
}

/** Resolves a URL path (already without the query) to a route. */
export function resolveRoute(pathname: string): Route {
  if (pathname === '/version' || pathname === '/version/') return { type: 'version' };
  if (pathname.startsWith('/__sim/'))
    return { type: 'sim', action: pathname.slice('/__sim/'.length).replace(/\/$/, '') };
  const parts = pathname
    .split('/')
    .filter((part) => part.length > 0)
    .map((part) => decodeURIComponent(part));
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length === 1) return { type: 'core-versions' };
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 1) return { type: 'groups' };
    if (parts.length === 2) return { type: 'group', group: parts[1] };
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return { type: 'not-found' };
  }
  if (!rest.length) return { type: 'resources', group, version };
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const inner = findResource(group, version, rest[2]);
    if (inner && (RESOURCES[inner] as ResourceInfo).namespaced) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
  }
  const resource = findResource(group, version, rest[0]);
  if (!resource) return { type: 'not-found' };
  if (rest.length === 1) return { type: 'resource', resource, namespace };
  let name = rest[1];
  const subresource = rest[2];
  if (subresource === 'proxy') {
    let port: number | undefined;
    const pieces = name.split(':');
    if (pieces.length === 3) {
      name = pieces[1];
      port = Number(pieces[2]);
    } else if (pieces.length === 2) {
      name = pieces[0];
      port = Number(pieces[1]);
    }
    if (port !== undefined && !Number.isInteger(port)) return { type: 'not-found' };
    const proxyPath = `/${rest.slice(3).join('/')}`;
    return { type: 'resource', resource, namespace, name, subresource, port, proxyPath, proxyTarget: rest[1] };
  }
  if (rest.length > 3) return { type: 'not-found' };
  return { type: 'resource', resource, namespace, name, subresource };
}
