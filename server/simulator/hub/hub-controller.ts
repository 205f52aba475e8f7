import type { Condition, KubeObject } from '@/lib/k8s/types';
import type { SimulatedCluster } from '../core';
import { installAcmCrds } from '../crds';
import { findCondition } from '../objects/conditions';
import { createWithStatus } from '../objects/write';
import type { StoreEvent } from '../store';
import type { SimClient } from '../types';
import {
  AGENT_ADDON_NAMESPACE,
  CONDITION_AVAILABLE,
  MANAGED_SERVICE_ACCOUNT,
  availableCondition,
  clusterProfile,
  clusterProfileStatus,
  hubNamespace,
  managedCluster,
  managedClusterAddOn,
  managedClusterSet,
  managedClusterSetBinding,
  managedClusterStatus,
  managedServiceAccount,
  managedServiceAccountStatus,
  syncedSecretName,
  syncedTokenSecret,
  tokenSecret,
  type ManagedClusterFacts,
} from './hub-objects';

/** An embedded cluster the hub can manage. */
export interface HubMember {
  name: string;
  url: string;
  caData: string;
  cluster: SimulatedCluster;
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

interface TokenState {
  current: string;
  cancelRotation: () => void;
  /** Revocations of rotated-out tokens still in their grace period. */
  pendingRevocations: Map<string, () => void>;
}

/** The ClusterRoleBinding the hub distributes to give the managed service account read access. */
export const MANAGED_READER_BINDING = 'update-health-managed-serviceaccount';
/** The ClusterRoleBinding that lets the managed service account ask SubjectAccessReviews for the dashboard's users. */
export const MANAGED_REVIEWER_BINDING = 'update-health-managed-serviceaccount-reviewer';

const ADDONS = ['cluster-proxy', 'managed-serviceaccount'];

/**
 * Plays the hub's controllers for the embedded clusters: registration (ManagedCluster status and claims), the
 * ClusterProfile controller, cluster-proxy and managed-serviceaccount add-ons with token rotation, and the
 * ClusterProfile credential syncer. Deleting a ManagedCluster cleans up as OCM does; creating one for a known
 * member registers it again.
 */
export class HubController {
  private readonly client: SimClient;
  private readonly tokens = new Map<string, TokenState>();
  private readonly members: Map<string, HubMember>;
  private unsubscribe: () => void = () => undefined;

  constructor(
    private readonly hub: SimulatedCluster,
    members: HubMember[],
    private readonly options: HubControllerOptions,
  ) {
    this.client = hub.as('open-cluster-management-hub');
    this.members = new Map(members.map((member) => [member.name, member]));
  }

  /** Installs the CRDs and the cluster set, imports every member and starts reacting to ManagedCluster changes. */
  start(): void {
    installAcmCrds(this.client);
    const { profileNamespace, clusterSet } = this.options;
    this.ensure('namespaces', hubNamespace(profileNamespace));
    this.ensure('managedclustersets', managedClusterSet(clusterSet));
    this.ensure('managedclustersetbindings', managedClusterSetBinding(clusterSet, profileNamespace));
    for (const member of this.members.values()) {
      if (!this.client.get('managedclusters', member.name)) {
        this.client.create('managedclusters', managedCluster(this.facts(member), clusterSet));
      }
      this.register(member.name);
    }
    // Store listeners run inside the write; react after it, as a controller's informer would.
    this.unsubscribe = this.hub.store.subscribe('managedclusters', (event) => queueMicrotask(() => this.on(event)));
  }

  /** Stops reacting and cancels the token timers. */
  stop(): void {
    this.unsubscribe();
    for (const state of this.tokens.values()) this.cancelTimers(state);
    this.tokens.clear();
  }

  /** The API server a live, registered cluster is reached at through cluster-proxy; undefined when it is not. */
  proxyTarget(name: string): HubMember | undefined {
    const member = this.members.get(name);
    return member && this.client.get('managedclusters', name) ? member : undefined;
  }

  /** The token the hub currently hands out for a cluster (its Secret's `token`). */
  currentToken(name: string): string | undefined {
    return this.tokens.get(name)?.current;
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
    if (!this.tokens.has(name)) throw new UnknownManagedClusterError(name);
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
  private register(name: string): void {
    const member = this.members.get(name);
    const live = this.client.get('managedclusters', name);
    if (!member || !live) return;
    const now = this.hub.clock.now();
    const facts = this.facts(member);
    const existing = findCondition((live.status as { conditions?: [] } | undefined)?.conditions, CONDITION_AVAILABLE);
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
    if (!this.tokens.has(name)) this.issueToken(name);
  }

  /** What the add-on's ManifestWork / ClusterPermission does on the managed cluster: read-only RBAC for the SA. */
  private grantReadAccess(member: HubMember): void {
    const client = member.cluster.as('work-agent');
    if (client.get('clusterrolebindings', MANAGED_READER_BINDING)) return;
    client.create('clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: MANAGED_READER_BINDING },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-reader' },
      subjects: [{ kind: 'ServiceAccount', name: MANAGED_SERVICE_ACCOUNT, namespace: AGENT_ADDON_NAMESPACE }],
    });
    // Per-user visibility asks each managed cluster by SubjectAccessReview, through cluster-proxy, as this account.
    client.create('clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: MANAGED_REVIEWER_BINDING },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'update-health-reviewer' },
      subjects: [{ kind: 'ServiceAccount', name: MANAGED_SERVICE_ACCOUNT, namespace: AGENT_ADDON_NAMESPACE }],
    });
  }

  private syncProfileStatus(name: string): void {
    const live = this.client.get('managedclusters', name);
    const profile = this.client.get('clusterprofiles', name, this.options.profileNamespace);
    if (!live || !profile) return;
    const available = findCondition((live.status as { conditions?: [] } | undefined)?.conditions, CONDITION_AVAILABLE);
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

  /** The agent mints a token (TokenRequest on the managed cluster) and reports it; the syncer copies it. */
  private issueToken(name: string): void {
    const member = this.members.get(name);
    const msa = this.client.get('managedserviceaccounts', MANAGED_SERVICE_ACCOUNT, name);
    if (!member || !msa) return;
    const { tokenTtlMs, tokenGraceMs, profileNamespace } = this.options;
    const token = member.cluster.serviceAccountTokens.mint(AGENT_ADDON_NAMESPACE, MANAGED_SERVICE_ACCOUNT);
    const now = this.hub.clock.now();
    const state = this.tokens.get(name) ?? {
      current: '',
      cancelRotation: () => undefined,
      pendingRevocations: new Map(),
    };
    state.cancelRotation();
    const previous = state.current;
    if (previous) {
      const revoke = () => {
        member.cluster.serviceAccountTokens.revoke(previous);
        state.pendingRevocations.delete(previous);
      };
      state.pendingRevocations.set(previous, this.hub.clock.setTimeout(revoke, tokenGraceMs));
    }
    state.current = token;
    state.cancelRotation = this.hub.clock.setTimeout(() => this.issueToken(name), tokenTtlMs);
    this.tokens.set(name, state);
    const secret = tokenSecret(name, msa.metadata.uid ?? '', token, member.caData);
    this.upsert(secret);
    this.client.updateStatus('managedserviceaccounts', {
      ...msa,
      status: managedServiceAccountStatus(now, now + tokenTtlMs + tokenGraceMs),
    });
    const profile = this.client.get('clusterprofiles', name, profileNamespace);
    if (profile) this.upsert(syncedTokenSecret(profile, secret));
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

  private cancelTimers(state: TokenState): void {
    state.cancelRotation();
    for (const cancel of state.pendingRevocations.values()) cancel();
  }

  /** OCM's cleanup of a deleted ManagedCluster: the agent's ServiceAccount (and so its tokens) and hub objects go. */
  private unregister(name: string): void {
    const member = this.members.get(name);
    const state = this.tokens.get(name);
    if (state) {
      this.cancelTimers(state);
      if (member) {
        member.cluster.serviceAccountTokens.revoke(state.current);
        for (const token of state.pendingRevocations.keys()) member.cluster.serviceAccountTokens.revoke(token);
      }
      this.tokens.delete(name);
    }
    const { profileNamespace } = this.options;
    const remove = (resource: Parameters<SimClient['delete']>[0], objectName: string, namespace?: string) => {
      if (this.client.get(resource, objectName, namespace)) this.client.delete(resource, objectName, namespace);
    };
    remove('secrets', syncedSecretName(name), profileNamespace);
    remove('clusterprofiles', name, profileNamespace);
    remove('secrets', MANAGED_SERVICE_ACCOUNT, name);
    remove('managedserviceaccounts', MANAGED_SERVICE_ACCOUNT, name);
    for (const addon of ADDONS) remove('managedclusteraddons', addon, name);
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
