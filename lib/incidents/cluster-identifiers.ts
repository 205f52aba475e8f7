/**
 * The names a cluster's own objects give for it and its machines, collected from a snapshot so the incident's
 * {@link Obfuscator} replaces them wherever they appear: node names (and short host names), the ClusterVersion
 * cluster ID, the infrastructure name, and the cluster and base domains behind the API server URL. Pure.
 */
import type { Snapshot } from '@/lib/health/types';
import { asArray, asString, dig, findObject, objectsOf } from '@/lib/health/shared/objects';
import type { ClusterIdentifiers } from './obfuscate';

function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `api.prod.example.com` → the cluster domain `prod.example.com` and the base domain `example.com`. */
function domainsOfApiHost(host: string | undefined): string[] {
  if (!host || !host.includes('.')) return [];
  const labels = host.split('.');
  const cluster = /^api(-int)?$/.test(labels[0]) ? labels.slice(1) : labels;
  return cluster.length > 2 ? [cluster.join('.'), cluster.slice(1).join('.')] : [cluster.join('.')];
}

function present(values: (string | undefined)[]): string[] {
  return [...new Set(values.filter((v): v is string => !!v && v.length > 0))];
}

/** What in `snapshot` names this cluster, its nodes and its domains. */
export function clusterIdentifiers(snapshot: Snapshot): ClusterIdentifiers {
  const nodes = objectsOf(snapshot, 'nodes').map((node) => {
    const name = node.metadata.name;
    const addresses = asArray(dig(node, 'status', 'addresses'))
      .filter((a) => /^(Hostname|InternalDNS|ExternalDNS)$/.test(asString(dig(a, 'type')) ?? ''))
      .map((a) => asString(dig(a, 'address')));
    const hostname = asString(dig(node, 'metadata', 'labels', 'kubernetes.io/hostname'));
    const short = name.includes('.') ? name.split('.')[0] : undefined;
    return { name, aliases: present([hostname, short, ...addresses]).filter((alias) => alias !== name) };
  });
  const clusterVersion = findObject(snapshot, 'clusterversions', 'version');
  const infrastructure = findObject(snapshot, 'infrastructures', 'cluster');
  const hosted = objectsOf(snapshot, 'hostedclusters');
  return {
    nodes,
    clusterIDs: present([
      asString(dig(clusterVersion, 'spec', 'clusterID')),
      ...hosted.map((hc) => asString(dig(hc, 'spec', 'clusterID'))),
    ]),
    infrastructureNames: present([
      asString(dig(infrastructure, 'status', 'infrastructureName')),
      ...hosted.map((hc) => asString(dig(hc, 'spec', 'infraID'))),
    ]),
    domains: present([
      ...domainsOfApiHost(hostOf(asString(dig(infrastructure, 'status', 'apiServerURL')))),
      ...domainsOfApiHost(hostOf(asString(dig(infrastructure, 'status', 'apiServerInternalURI')))),
      asString(dig(infrastructure, 'status', 'etcdDiscoveryDomain')),
      ...hosted.map((hc) => asString(dig(hc, 'spec', 'dns', 'baseDomain'))),
    ]),
  };
}
