import 'server-only';
import { conditionOf } from '@/lib/k8s/conditions';
import type { KubeObject } from '@/lib/k8s/types';
import type { DiscoveredByDto, ReachabilityDto } from '@/lib/api/dto';
import type { CredentialSource, ServerEndpoint } from '@/server/watch/kube-credentials';
import type { MemberSpec } from './fleet-source';

/** The ClusterProfile access provider (and cluster manager) OCM writes. */
export const OCM_PROVIDER = 'open-cluster-management';
/** The ClusterProfile label naming the managed cluster. */
export const LABEL_CLUSTER_NAME = 'open-cluster-management.io/cluster-name';
/** The label of the syncer's token Secret copies in the ClusterProfile namespace. */
export const LABEL_SYNCED_FROM = 'authentication.open-cluster-management.io/synced-from';
/** The label of managed-serviceaccount token Secrets in the cluster namespaces. */
export const LABEL_IS_MANAGED_SERVICE_ACCOUNT = 'authentication.open-cluster-management.io/is-managed-serviceaccount';
/** The cluster extension handed to an exec plugin (`clusterName` for cp-creds). */
export const EXEC_EXTENSION = 'client.authentication.k8s.io/exec';
/** ManagedCluster condition the registration controller keeps from the klusterlet's lease. */
export const CONDITION_AVAILABLE = 'ManagedClusterConditionAvailable';
/** ClusterProfile condition OCM mirrors from it. */
export const CONDITION_CONTROL_PLANE_HEALTHY = 'ControlPlaneHealthy';

/** A token Secret as the hub source caches it: just where it is and its decoded token, or why there is none. */
export interface TokenEntry {
  token?: string;
  problem?: string;
}

/** How a hub member gets credentials: a token Secret (watched), or an exec plugin given the cluster. */
export type HubCredentials =
  | { kind: 'secret'; namespace: string; name: string; token: (rejected: boolean) => Promise<{ token: string }> }
  | { kind: 'exec'; make: (cluster: ExecCluster) => CredentialSource };

/** What an exec plugin is told about the cluster (`provideClusterInfo`). */
export interface ExecCluster {
  server: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  config?: unknown;
}

interface AccessCluster {
  server?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  extensions?: { name?: string; extension?: unknown }[];
}

interface Provider {
  name?: string;
  cluster?: AccessCluster;
}

/** The decoded `token` of a token Secret, or the problem with it. */
export function tokenOfSecret(secret: KubeObject): TokenEntry {
  const data = (secret as { data?: Record<string, unknown> }).data;
  const raw = data?.token;
  const where = `Secret ${secret.metadata.namespace}/${secret.metadata.name}`;
  if (typeof raw !== 'string' || raw === '') return { problem: `${where} has no "token" key` };
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(raw)) return { problem: `${where}: "token" is not base64` };
  const token = Buffer.from(raw, 'base64').toString('utf8').trim();
  if (!token || /\s/.test(token)) return { problem: `${where}: "token" does not decode to a bearer token` };
  return { token };
}

/**
 * The token Secrets a hub source watches, by `namespace/name`, answering each request with the current token or
 * the reason there is none. A rejected token is looked up again at once through `fetch` (the watch may not have
 * delivered the rotation yet).
 */
export class TokenSecrets {
  private readonly entries = new Map<string, TokenEntry>();

  constructor(private readonly fetch?: (namespace: string, name: string) => Promise<KubeObject | undefined>) {}

  /** Takes a watched Secret (added or modified), or forgets a deleted one. */
  observe(secret: KubeObject, deleted = false): void {
    const key = `${secret.metadata.namespace}/${secret.metadata.name}`;
    if (deleted) this.entries.delete(key);
    else this.entries.set(key, tokenOfSecret(secret));
  }

  /** The token of `namespace/name`; rejects with the reason when the Secret is missing or malformed. */
  async token(namespace: string, name: string, rejected: boolean): Promise<{ token: string }> {
    const key = `${namespace}/${name}`;
    if (rejected && this.fetch) {
      try {
        const fresh = await this.fetch(namespace, name);
        if (fresh) this.observe(fresh);
        else this.entries.delete(key);
      } catch {
        // the hub is unreachable now: keep what the watch last delivered
      }
    }
    const entry = this.entries.get(key);
    if (!entry) throw new Error(`token Secret ${key} not found (is the ManagedServiceAccount synced?)`);
    if (!entry.token) throw new Error(entry.problem ?? `token Secret ${key} has no token`);
    return { token: entry.token };
  }
}

/** The hub's word that a cluster is not available (condition False or Unknown), since its last transition. */
export function hubReachability(object: KubeObject, type: string, now: string): ReachabilityDto | undefined {
  const condition = conditionOf(object, type);
  if (!condition || condition.status === 'True') return undefined;
  return {
    status: 'hub-unavailable',
    since: condition.lastTransitionTime ?? now,
    ...(condition.message || condition.reason
      ? { message: [condition.reason, condition.message].filter(Boolean).join(': ') }
      : {}),
  };
}

/** `id.openshift.io` of a ManagedCluster (its ClusterVersion `spec.clusterID`). */
export function clusterIdClaim(managedCluster: KubeObject): string | undefined {
  const claims = (managedCluster.status as { clusterClaims?: { name?: string; value?: string }[] } | undefined)
    ?.clusterClaims;
  return claims?.find((claim) => claim.name === 'id.openshift.io')?.value || undefined;
}

/** What building a hub member needs besides the object. */
export interface HubMemberContext {
  discoveredBy: DiscoveredByDto;
  /** `id.openshift.io` claims of the hub's ManagedClusters, by cluster name (joins a cluster reached two ways). */
  clusterIds?: ReadonlyMap<string, string>;
  credentials: (cluster: string) => HubCredentials;
  now: string;
}

function endpointOf(cluster: AccessCluster): ServerEndpoint {
  return {
    server: cluster.server ?? '',
    ...(cluster['certificate-authority-data'] ? { caData: cluster['certificate-authority-data'] } : {}),
    ...(cluster['insecure-skip-tls-verify'] ? { insecureSkipTLSVerify: true } : {}),
  };
}

/**
 * The fleet member of one ClusterProfile: reached through its `open-cluster-management` access provider (from
 * `accessProviders`, else the deprecated `credentialProviders`), or waiting with the reason it cannot be.
 */
export function memberFromProfile(profile: KubeObject, context: HubMemberContext): MemberSpec {
  const name = profile.metadata.labels?.[LABEL_CLUSTER_NAME] ?? profile.metadata.name;
  const since = profile.metadata.creationTimestamp ?? context.now;
  const base = { id: name, name, discoveredBy: context.discoveredBy };
  const status = profile.status as { accessProviders?: Provider[]; credentialProviders?: Provider[] } | undefined;
  const provider =
    status?.accessProviders?.find((candidate) => candidate.name === OCM_PROVIDER) ??
    status?.credentialProviders?.find((candidate) => candidate.name === OCM_PROVIDER);
  if (!provider?.cluster?.server) {
    const reason = provider
      ? `ClusterProfile ${profile.metadata.namespace}/${profile.metadata.name}: access provider "${OCM_PROVIDER}" has no server`
      : `ClusterProfile ${profile.metadata.namespace}/${profile.metadata.name} has no "${OCM_PROVIDER}" access provider ` +
        '(is cluster-proxy enabled and the ClusterProfile feature gate on?)';
    return { ...base, waiting: { reason, since } };
  }
  const extension = provider.cluster.extensions?.find((entry) => entry.name === EXEC_EXTENSION)?.extension;
  return withCredentials(
    base,
    endpointOf(provider.cluster),
    extension,
    hubReachability(profile, CONDITION_CONTROL_PLANE_HEALTHY, context.now),
    context.clusterIds?.get(name),
    context,
  );
}

/**
 * The fleet member of one ManagedCluster (hubs without the ClusterProfile API): reached at `<proxyUrl>/<cluster>`
 * through cluster-proxy with its managed-serviceaccount token.
 */
export function memberFromManagedCluster(
  managedCluster: KubeObject,
  proxy: { url: string; caData?: string },
  context: HubMemberContext,
): MemberSpec {
  const name = managedCluster.metadata.name;
  const endpoint: ServerEndpoint = {
    server: `${proxy.url.replace(/\/+$/, '')}/${encodeURIComponent(name)}`,
    ...(proxy.caData ? { caData: proxy.caData } : {}),
  };
  return withCredentials(
    { id: name, name, discoveredBy: context.discoveredBy },
    endpoint,
    { clusterName: name },
    hubReachability(managedCluster, CONDITION_AVAILABLE, context.now),
    clusterIdClaim(managedCluster),
    context,
  );
}

function withCredentials(
  base: { id: string; name: string; discoveredBy: DiscoveredByDto },
  endpoint: ServerEndpoint,
  extension: unknown,
  reachability: ReachabilityDto | undefined,
  clusterID: string | undefined,
  context: HubMemberContext,
): MemberSpec {
  const how = context.credentials(base.name);
  const extra = { ...(clusterID ? { clusterID } : {}) };
  // A missing or malformed token Secret still makes a row: its requests fail with the reason (shown on the row)
  // until the Secret is there, and the same engine then goes on with it.
  const credentials: CredentialSource =
    how.kind === 'secret'
      ? ({ rejected }) => how.token(rejected)
      : how.make({
          server: endpoint.server,
          ...(endpoint.caData ? { 'certificate-authority-data': endpoint.caData } : {}),
          ...(endpoint.insecureSkipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
          ...(extension !== undefined ? { config: extension } : {}),
        });
  return {
    ...base,
    ...extra,
    connection: { kind: 'endpoint', endpoint, credentials },
    fingerprint: JSON.stringify([endpoint, how.kind, how.kind === 'secret' ? how.name : '']),
    ...(reachability ? { reachability } : {}),
  };
}
