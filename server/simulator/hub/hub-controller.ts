import { resourceForKind } from '@/lib/k8s/resources';
import type { Condition, KubeObject } from '@/lib/k8s/types';
import type { SimulatedCluster } from '../core';
import { installAcmCrds } from '../crds';
import { conditionOf } from '@/lib/k8s/conditions';
import { createWithStatus } from '../objects/write';
import type { StoreEvent } from '../store';
import type { SimClient } from '../types';
import {
  clusterProfile,
  clusterProfileStatus,
  managedServiceAccount,
  managedServiceAccountStatus,
  syncedSecretName,
  syncedTokenSecret,
  tokenSecret,
} from './access-objects';
import {
  availableCondition,
  hubNamespace,
  managedCluster,
  managedClusterAddOn,
  managedClusterInfo,
  managedClusterInfoStatus,
  managedClusterSet,
  managedClusterSetBinding,
  managedClusterStatus,
  type ManagedClusterFacts,
} from './hub-objects';
import { CONDITION_AVAILABLE, MANAGED_SERVICE_ACCOUNT } from '@/lib/acm/ocm-names';
import { managedClusterRbac } from './managed-rbac';
import { TokenRotation } from './token-rotation';
import type { ApiRequestHandler } from '../https-server';

/** An embedded cluster the hub can manage. */
export interface HubMember {
  name: string;
  url: string;
  caData: string;
  cluster: SimulatedCluster;
  /** Its in-process request handler when it has no listener: cluster-proxy hands requests to it directly. */
  dispatch?: ApiRequestHandler;
}

/** Options of the hub's controllers. */
export interface HubControllerOptions {
  /** The namespace bound to the cluster set, where ClusterProfiles and synced token Secrets appear. */
  profileNamespace: string;
  clusterSet: string;
  /** The cluster-proxy user-server URL and CA (base64 PEM) the access providers point at. */
  proxy: { url: string; caData: string };
  /** Hub-clock milliseconds between token rotations. */
  tokenTtlMs: number;
  /** Hub-clock milliseconds an old token keeps working after a rotation. */
  tokenGraceMs: number;
}

const ADDONS = ['cluster-proxy', 'managed-serviceaccount'];
/** The foundation klusterlet's ManagedClusterInfo refresh period (it does not watch ClusterVersion). */
export const CLUSTER_INFO_SYNC_MS = 5 * 60_000;

/**
 * Plays the hub's controllers for the embedded clusters: registration (ManagedCluster status and claims), the
 * ClusterProfile controller, cluster-proxy and managed-serviceaccount add-ons with token rotation, and the
 * ClusterProfile credential syncer. Deleting a ManagedCluster cleans up as OCM does; creating one for a known
 * member registers it again.
 */
export class HubController {
  private readonly client: SimClient;
  private readonly tokens: TokenRotation;
  private readonly members: Map<string, HubMember>;
  private unsubscribe: () => void = () => undefined;
  private stopInfoSync: () => void = () => undefined;

  constructor(
    private readonly hub: SimulatedCluster,
    members: HubMember[],
    private readonly options: HubControllerOptions,
  ) {
    this.client = hub.as('open-cluster-management-hub');
    this.tokens = new TokenRotation(hub.clock, options.tokenTtlMs, options.tokenGraceMs);
    this.members = new Map(members.map((member) => [member.name, member]));
  }

  /** Installs the CRDs and the cluster set, imports every member and starts reacting to ManagedCluster changes. */
  start(): void {
    installAcmCrds(this.client);
    const { profileNamespace, clusterSet } = this.options;
    this.ensure('namespaces', hubNamespace(profileNamespace));
    this.ensure('managedclustersets', managedClusterSet(clusterSet));
    this.ensure('managedclustersetbindings', managedClusterSetBinding(clusterSet, profileNamespace));
    // Clusters imported over time hold tokens of different ages: spread the first rotations over one TTL, so the
    // fleet's Secrets do not all change at the same moment.
    const count = this.members.size;
    [...this.members.values()].forEach((member, index) => {
      if (!this.client.get('managedclusters', member.name)) {
        this.client.create('managedclusters', managedCluster(this.facts(member), clusterSet));
      }
      this.register(member.name, Math.round((this.options.tokenTtlMs * (index + 1)) / count));
    });
    // Store listeners run inside the write; react after it, as a controller's informer would.
    this.unsubscribe = this.hub.store.subscribe('managedclusters', (event) => queueMicrotask(() => this.on(event)));
    this.stopInfoSync = this.hub.clock.setInterval(() => {
      for (const name of this.tokens.names()) this.syncClusterInfo(name);
    }, CLUSTER_INFO_SYNC_MS);
  }

  /** Stops reacting and cancels the token timers. */
  stop(): void {
    this.unsubscribe();
    this.stopInfoSync();
    this.tokens.stop();
  }

  /** The API server a live, registered cluster is reached at through cluster-proxy; undefined when it is not. */
  proxyTarget(name: string): HubMember | undefined {
    const member = this.members.get(name);
    // Asked on every tunnelled request: an existence check, not a copy of the object.
    return member && this.hub.store.get('managedclusters', undefined, name) ? member : undefined;
  }

  /** The token the hub currently hands out for a cluster (its Secret's `token`). */
  currentToken(name: string): string | undefined {
    return this.tokens.current(name);
  }

  /** Sets `ManagedClusterConditionAvailable` (what the registration controller does when the lease stops). */
  setAvailable(name: string, status: 'True' | 'False' | 'Unknown'): KubeObject {
    const live = this.client.get('managedclusters', name);
    if (!live) throw new UnknownManagedClusterError(name);
    const current = (live.status ?? {}) as { conditions?: Condition[] };
    const next = availableCondition(status, this.hub.clock.now());
    const conditions = (current.conditions ?? []).filter((c) => c.type !== CONDITION_AVAILABLE);
    return this.client.updateStatus('managedclusters', {
      ...live,
      status: { ...current, conditions: [...conditions, next] },
    });
  }

  /** Mints a new token for a registered cluster now (as a refresh threshold would). */
  rotate(name: string): void {
    if (this.tokens.current(name) === undefined) throw new UnknownManagedClusterError(name);
    this.issueToken(name);
  }

  private on(event: StoreEvent): void {
    const name = event.entry.view.metadata.name;
    if (event.type === 'DELETED') return this.unregister(name);
    if (event.type === 'ADDED') return this.register(name);
    this.syncProfileStatus(name);
  }

  private facts(member: HubMember): ManagedClusterFacts {
    const client = member.cluster.client;
    const version = client.get('clusterversions', 'version');
    const infrastructure = client.get('infrastructures', 'cluster');
    const spec = (version?.spec ?? {}) as { clusterID?: string };
    const desired = (version?.status as { desired?: { version?: string } } | undefined)?.desired;
    const topology = (infrastructure?.status as { controlPlaneTopology?: string } | undefined)?.controlPlaneTopology;
    return {
      name: member.name,
      apiServerUrl: member.url,
      caData: member.caData,
      clusterId: spec.clusterID ?? '',
      version: desired?.version ?? '',
      kubernetesVersion: 'v1.29.10',
      controlPlaneTopology: topology ?? 'HighlyAvailable',
    };
  }

  private ensure(resource: Parameters<SimClient['get']>[0], object: KubeObject): KubeObject {
    const live = this.client.get(resource, object.metadata.name, object.metadata.namespace);
    return live ?? createWithStatus(this.client, resource, object);
  }

  /** Joins a ManagedCluster of a known member: status, cluster namespace, add-ons, ManagedServiceAccount, profile. */
  private register(name: string, firstRotationMs?: number): void {
    const member = this.members.get(name);
    const live = this.client.get('managedclusters', name);
    if (!member || !live) return;
    const now = this.hub.clock.now();
    const facts = this.facts(member);
    const existing = conditionOf(live, CONDITION_AVAILABLE);
    this.client.updateStatus('managedclusters', {
      ...live,
      status: managedClusterStatus(facts, existing ?? availableCondition('True', now), now),
    });
    this.ensure('namespaces', hubNamespace(name));
    for (const addon of ADDONS) this.ensure('managedclusteraddons', managedClusterAddOn(name, addon, now));
    this.ensure('managedserviceaccounts', managedServiceAccount(name, Math.round(this.options.tokenTtlMs / 1000)));
    this.grantReadAccess(member);
    this.ensure('clusterprofiles', clusterProfile(name, this.options.profileNamespace, this.options.clusterSet));
    this.syncProfileStatus(name);
    this.ensure('managedclusterinfos', managedClusterInfo(name));
    this.syncClusterInfo(name);
    if (this.tokens.current(name) === undefined) this.issueToken(name, firstRotationMs);
  }

  /** What deploy/acm's ManifestWorkReplicaSet does on each managed cluster: the read-only RBAC of the SA. */
  private grantReadAccess(member: HubMember): void {
    const client = member.cluster.as('work-agent');
    for (const manifest of managedClusterRbac()) {
      const resource = resourceForKind(manifest.kind);
      if (!resource) throw new Error(`deploy/acm distributes a ${manifest.kind}, which the simulator does not serve`);
      if (!client.get(resource, manifest.metadata.name, manifest.metadata.namespace)) client.create(resource, manifest);
    }
  }

  private syncProfileStatus(name: string): void {
    const live = this.client.get('managedclusters', name);
    const profile = this.client.get('clusterprofiles', name, this.options.profileNamespace);
    if (!live || !profile) return;
    const available = conditionOf(live, CONDITION_AVAILABLE);
    const kubernetes = (live.status as { version?: { kubernetes?: string } } | undefined)?.version?.kubernetes ?? '';
    const status = clusterProfileStatus(name, this.options.proxy, available, kubernetes, this.hub.clock.now());
    const previous = (profile.status ?? {}) as {
      conditions?: { type: string; status: string; lastTransitionTime?: string }[];
    };
    // Keep transition times when nothing moved, so a no-op sync writes nothing.
    const conditions = (status as { conditions: { type: string; status: string; lastTransitionTime?: string }[] })
      .conditions;
    for (const next of conditions) {
      const before = previous.conditions?.find((c) => c.type === next.type);
      if (before && before.status === next.status) next.lastTransitionTime = before.lastTransitionTime;
    }
    this.client.updateStatus('clusterprofiles', { ...profile, status });
  }

  private syncClusterInfo(name: string): void {
    const member = this.members.get(name);
    const info = this.client.get('managedclusterinfos', name, name);
    if (!member || !info) return;
    const clusterVersion = member.cluster.client.get('clusterversions', 'version');
    const status = managedClusterInfoStatus(this.facts(member), clusterVersion, this.hub.clock.now());
    const previous = (info.status as { conditions?: Condition[] } | undefined)?.conditions?.[0];
    const conditions = (status as { conditions: Condition[] }).conditions;
    if (previous) conditions[0].lastTransitionTime = previous.lastTransitionTime;
    this.client.updateStatus('managedclusterinfos', { ...info, status });
  }

  /** The agent mints a token (TokenRequest on the managed cluster) and reports it; the syncer copies it. */
  private issueToken(name: string, untilNextMs?: number): void {
    const member = this.members.get(name);
    if (!member) return;
    const report = (token: string, replacedAtMs: number) => {
      const msa = this.client.get('managedserviceaccounts', MANAGED_SERVICE_ACCOUNT, name);
      if (!msa) return;
      const secret = tokenSecret(name, msa.metadata.uid ?? '', token, member.caData);
      this.upsert(secret);
      const { tokenGraceMs, profileNamespace } = this.options;
      const status = managedServiceAccountStatus(this.hub.clock.now(), replacedAtMs + tokenGraceMs);
      this.client.updateStatus('managedserviceaccounts', { ...msa, status });
      const profile = this.client.get('clusterprofiles', name, profileNamespace);
      if (profile) this.upsert(syncedTokenSecret(profile, secret));
    };
    this.tokens.issue(name, member.cluster.serviceAccountTokens, report, untilNextMs);
  }

  private upsert(secret: KubeObject): void {
    const live = this.client.get('secrets', secret.metadata.name, secret.metadata.namespace);
    if (!live) this.client.create('secrets', secret);
    else
      this.client.update('secrets', {
        ...secret,
        metadata: { ...secret.metadata, resourceVersion: live.metadata.resourceVersion },
      });
  }

  /** OCM's cleanup of a deleted ManagedCluster: the agent's ServiceAccount (and so its tokens) and hub objects go. */
  private unregister(name: string): void {
    const member = this.members.get(name);
    this.tokens.forget(name, member?.cluster.serviceAccountTokens);
    const { profileNamespace } = this.options;
    const remove = (resource: Parameters<SimClient['delete']>[0], objectName: string, namespace?: string) => {
      if (this.client.get(resource, objectName, namespace)) this.client.delete(resource, objectName, namespace);
    };
    remove('secrets', syncedSecretName(name), profileNamespace);
    remove('clusterprofiles', name, profileNamespace);
    remove('secrets', MANAGED_SERVICE_ACCOUNT, name);
    remove('managedserviceaccounts', MANAGED_SERVICE_ACCOUNT, name);
    for (const addon of ADDONS) remove('managedclusteraddons', addon, name);
    remove('managedclusterinfos', name, name);
    remove('namespaces', name);
  }
}

/** Thrown when a hub control names a cluster that has no ManagedCluster. */
export class UnknownManagedClusterError extends Error {
  constructor(name: string) {
    super(`no ManagedCluster "${name}" on the hub`);
    this.name = 'UnknownManagedClusterError';
  }
}
