import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import { execCredentialSource, type ExecConfig } from '@/server/kube/exec-credential';
import { KubeApiError } from '@/server/watch/kube-errors';
import { KubeTransport } from '@/server/watch/kube-transport';
import { Reflector } from '@/server/watch/reflector';
import type { ReflectorOptions } from '@/server/watch/reflector-types';
import type { FleetSource, MemberSpec, SourceStatus } from './fleet-source';
import {
  LABEL_IS_MANAGED_SERVICE_ACCOUNT,
  LABEL_SYNCED_FROM,
  memberFromManagedCluster,
  memberFromProfile,
  clusterIdClaim,
  LABEL_CLUSTER_NAME,
  TokenSecrets,
  type HubCredentials,
  type HubMemberContext,
} from './hub-members';

/** The ManagedServiceAccount the dashboard reaches managed clusters with, unless told otherwise. */
export const DEFAULT_MANAGED_SERVICE_ACCOUNT = 'update-health';

/** Options of {@link hubSource}. */
export interface HubSourceOptions {
  /** The hub's kubeconfig and context (`--hub FILE[:CONTEXT]`). */
  kubeconfig: string;
  context?: string;
  /** The namespace whose ClusterProfiles are the fleet (bound to the cluster sets the dashboard may see). */
  namespace: string;
  /** The ManagedServiceAccount whose token Secrets are used (default `update-health`). */
  managedServiceAccount?: string;
  /** An exec credential plugin for the `open-cluster-management` access provider (cp-creds), instead of Secrets. */
  exec?: ExecConfig;
  /** The cluster-proxy user-server, for hubs without the ClusterProfile API (ManagedClusters only). */
  proxy?: { url: string; caData?: string };
  /** Watch timing (tests). */
  watch?: Pick<ReflectorOptions, 'bookmarkIntervalMs' | 'backoff' | 'inactivityTimeoutMs' | 'headerTimeoutMs'>;
  /** How long before an unreachable hub is asked again which API it serves. Default 10 s. */
  retryMs?: number;
  now?: () => number;
}

const CLUSTER_PROFILE_API = '/apis/multicluster.x-k8s.io/v1alpha1';
const RECOMPUTE_MS = 50;

/** A token Secret projection: where it is and its token, nothing else of the Secret is kept. */
function projectSecret(secret: KubeObject): KubeObject {
  const { name, namespace, resourceVersion, uid } = secret.metadata;
  const token = (secret as { data?: Record<string, unknown> }).data?.token;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, resourceVersion, uid },
    ...(token !== undefined ? { data: { token } } : {}),
  } as KubeObject;
}

/**
 * An ACM / OCM hub as a live fleet source. Its members are the ClusterProfiles of one namespace, reached through
 * their `open-cluster-management` access provider (cluster-proxy) with the managed-serviceaccount token Secret the
 * syncer copies next to them (`<cluster>-<msa>`, watched) or an exec plugin; on a hub that does not serve the
 * ClusterProfile API, the ManagedClusters, reached at `<proxy>/<cluster>` with the token Secret `<msa>` in each
 * cluster's namespace. A ClusterProfile or ManagedCluster created or deleted joins or leaves the set at once.
 */
export function hubSource(options: HubSourceOptions): FleetSource {
  const now = options.now ?? Date.now;
  const msa = options.managedServiceAccount ?? DEFAULT_MANAGED_SERVICE_ACCOUNT;
  const name = options.context ? `${options.kubeconfig}:${options.context}` : options.kubeconfig;
  const discoveredBy = { kind: 'hub' as const, name: options.context ?? 'hub' };
  let transport: KubeTransport | undefined;
  let reflectors: { inventory: Reflector; secrets: Reflector; claims?: Reflector } | undefined;
  let mode: 'profiles' | 'managed-clusters' | undefined;
  let problem: SourceStatus['error'];
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let recompute: NodeJS.Timeout | undefined;
  let report: (members: readonly MemberSpec[]) => void = () => undefined;
  const secrets = new TokenSecrets(async (namespace, secretName) => {
    if (!transport) return undefined;
    try {
      return await transport.getJson<KubeObject>(
        `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(secretName)}`,
      );
    } catch (error) {
      if (error instanceof KubeApiError && error.code === 404) return undefined;
      throw error;
    }
  });

  const fail = (message: string) => {
    if (problem?.message !== message) problem = { message, since: new Date(now()).toISOString() };
  };
  const secretRef = (cluster: string) =>
    mode === 'profiles'
      ? { namespace: options.namespace, name: `${cluster}-${msa}` }
      : { namespace: cluster, name: msa };
  const credentials = (cluster: string): HubCredentials => {
    if (options.exec) {
      const exec = options.exec;
      return {
        kind: 'exec',
        make: (info) => execCredentialSource({ ...exec, provideClusterInfo: true }, { cluster: info }),
      };
    }
    const ref = secretRef(cluster);
    return { kind: 'secret', ...ref, token: (rejected) => secrets.token(ref.namespace, ref.name, rejected) };
  };

  /**
   * The member built from each inventory object (by uid), reused while the object and its cluster ID claim are the
   * ones it was built from: a hub of thousands of clusters changes a few of them at a time.
   */
  let built = new Map<string, { object: KubeObject; clusterId: string | undefined; member: MemberSpec }>();
  let reported: readonly MemberSpec[] | undefined;
  const memberOf = (object: KubeObject, context: HubMemberContext): MemberSpec => {
    if (mode === 'profiles') return memberFromProfile(object, context);
    if (options.proxy) return memberFromManagedCluster(object, options.proxy, context);
    return {
      id: object.metadata.name,
      name: object.metadata.name,
      discoveredBy,
      waiting: {
        reason: 'the hub serves no ClusterProfile API and no cluster-proxy URL is configured (--hub-proxy-url)',
        since: object.metadata.creationTimestamp ?? context.now,
      },
    };
  };
  const members = (): MemberSpec[] => {
    if (!reflectors) return [];
    const clusterIds = new Map<string, string>();
    for (const cluster of reflectors.claims?.cache.list() ?? []) {
      const id = clusterIdClaim(cluster);
      if (id) clusterIds.set(cluster.metadata.name, id);
    }
    const context: HubMemberContext = { discoveredBy, credentials, clusterIds, now: new Date(now()).toISOString() };
    const next: typeof built = new Map();
    const list = reflectors.inventory.cache.list().map((object) => {
      const key = object.metadata.uid ?? `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
      const clusterId = clusterIds.get(object.metadata.labels?.[LABEL_CLUSTER_NAME] ?? object.metadata.name);
      const known = built.get(key);
      const member =
        known && known.object === object && known.clusterId === clusterId ? known.member : memberOf(object, context);
      next.set(key, { object, clusterId, member });
      return member;
    });
    built = next;
    return list;
  };
  const sameMembers = (a: readonly MemberSpec[], b: readonly MemberSpec[]) =>
    a.length === b.length && a.every((member, i) => member === b[i]);
  const recomputeNow = () => {
    clearTimeout(recompute);
    recompute = undefined;
    if (stopped) return;
    const set = members();
    // Unchanged members are the same objects: an event that changed none of them is not reported.
    if (!reported || !sameMembers(set, reported)) report(set);
    reported = set;
  };
  const scheduleRecompute = () => {
    if (recompute || stopped) return;
    recompute = setTimeout(recomputeNow, RECOMPUTE_MS);
    recompute.unref?.();
  };

  const watch = (resource: ResourceName, extra: Partial<ReflectorOptions>): Reflector =>
    new Reflector({
      transport: transport!,
      resource,
      ...options.watch,
      ...extra,
      handler: (event) => {
        // A member asks for its token when it sends a request: a token Secret changes no member.
        if (event.type !== 'synced' && event.object.kind === 'Secret') {
          secrets.observe(event.object, event.type === 'deleted');
          return;
        }
        // A complete list is reported at once: the inventory's says the hub listed (see `status`) as it arrives.
        if (event.type === 'synced') recomputeNow();
        else scheduleRecompute();
      },
    });

  const begin = async () => {
    if (stopped) return;
    try {
      transport ??= KubeTransport.fromFile(options.kubeconfig, { context: options.context });
      mode = (await servesClusterProfiles(transport)) ? 'profiles' : 'managed-clusters';
      built = new Map();
    } catch (error) {
      fail(`hub ${name} unreachable: ${(error as Error).message}`);
      retry = setTimeout(() => void begin(), options.retryMs ?? 10_000);
      retry.unref?.();
      return;
    }
    if (stopped) return;
    problem = undefined;
    reflectors =
      mode === 'profiles'
        ? {
            inventory: watch('clusterprofiles', { namespace: options.namespace }),
            secrets: watch('secrets', {
              namespace: options.namespace,
              labelSelector: LABEL_SYNCED_FROM,
              transform: projectSecret,
            }),
            // Only for their cluster ID claims (a cluster also reached by kubeconfig is one row); may be forbidden.
            claims: watch('managedclusters', {}),
          }
        : {
            inventory: watch('managedclusters', {}),
            secrets: watch('secrets', {
              labelSelector: `${LABEL_IS_MANAGED_SERVICE_ACCOUNT}=true`,
              fieldSelector: `metadata.name=${msa}`,
              transform: projectSecret,
            }),
          };
    reflectors.inventory.start();
    reflectors.claims?.start();
    if (!options.exec) reflectors.secrets.start();
  };

  return {
    start(onChange) {
      report = onChange;
      void begin();
    },
    status(): SourceStatus {
      const state = reflectors?.inventory.state();
      // Listed once the inventory synced (it may be stale since): the fleet knows the hub's clusters from then on.
      const listed = state?.lastSyncAt !== undefined;
      const status: SourceStatus = { kind: 'hub', name, ...(listed ? {} : { listing: true }) };
      if (problem) return { ...status, error: problem };
      // The inventory watch's own trouble (unreachable, unauthorized, forbidden) is the hub's: the last set stays.
      if (state && state.status !== 'synced' && state.error) {
        const what = mode === 'profiles' ? `ClusterProfiles in ${options.namespace}` : 'ManagedClusters';
        return {
          ...status,
          error: { message: `${what}: ${state.status}: ${state.error.message}`, since: state.since },
        };
      }
      return status;
    },
    stop() {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(recompute);
      reflectors?.inventory.stop();
      reflectors?.secrets.stop();
      reflectors?.claims?.stop();
      transport?.close();
    },
  };
}

/** True when the hub serves the ClusterProfile API (the OCM `ClusterProfile` feature gate is on). */
async function servesClusterProfiles(transport: KubeTransport): Promise<boolean> {
  try {
    const list = await transport.getJson<{ resources?: { name?: string }[] }>(CLUSTER_PROFILE_API);
    return list.resources?.some((resource) => resource.name === 'clusterprofiles') ?? false;
  } catch (error) {
    if (error instanceof KubeApiError && error.code === 404) return false;
    throw error;
  }
}
