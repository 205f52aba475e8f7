import 'server-only';
import type { DiscoveredByDto, FleetMembershipDto, ReachabilityDto } from '@/lib/api/dto';
import type { CredentialSource, ServerEndpoint } from '@/server/watch/kube-credentials';

/** How to reach a member's API server: a kubeconfig context, or an endpoint with a credential source. */
export type MemberConnection =
  | { kind: 'kubeconfig'; path: string; context: string; credentials?: CredentialSource }
  | { kind: 'endpoint'; endpoint: ServerEndpoint; credentials: CredentialSource };

/** One cluster a source found, ready to watch. */
export interface ConnectableMember {
  id: string;
  name: string;
  discoveredBy: DiscoveredByDto;
  connection: MemberConnection;
  /**
   * Changes exactly when the connection must be rebuilt (a context's server, CA or user edited; a new access
   * provider). A rotated token does not change it: credentials are asked per request.
   */
  fingerprint: string;
  /** `spec.clusterID` of the cluster's ClusterVersion when the source knows it (a hub's `id.openshift.io` claim). */
  clusterID?: string;
  reachability?: ReachabilityDto;
}

/** A cluster a source found but cannot connect to, with the reason (no access provider, no token Secret, ...). */
export interface WaitingMember {
  id: string;
  name: string;
  discoveredBy: DiscoveredByDto;
  waiting: { reason: string; since: string };
  clusterID?: string;
}

/** A member of a source's live set. */
export type MemberSpec = ConnectableMember | WaitingMember;

/** True when the member can be watched now. */
export function isConnectable(member: MemberSpec): member is ConnectableMember {
  return 'connection' in member;
}

/**
 * A source's own health, as the membership DTO carries it: still listing (its first set not known yet), or reading
 * it fails now (the last good set is kept) since when.
 */
export type SourceStatus = FleetMembershipDto['sources'][number];

/**
 * Where fleet members come from. A source owns a live set of members and reports every change of it, as the whole
 * set; the fleet adds, removes and rebuilds engines to match. Errors keep the last good set and show in `status`.
 */
export interface FleetSource {
  start(onChange: (members: readonly MemberSpec[]) => void): void;
  status(): SourceStatus;
  stop(): void;
}
