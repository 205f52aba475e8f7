import 'server-only';
import { isConnectable, type ConnectableMember, type MemberSpec, type WaitingMember } from './fleet-source';

/** What the fleet should watch, given every source's live set. */
export interface MembershipPlan {
  connect: ConnectableMember[];
  waiting: WaitingMember[];
  /** Members reached another way too (same cluster ID): id of the member dropped → id of the row it joins. */
  joined: Map<string, string>;
}

const PRECEDENCE = { kubeconfig: 0, management: 1, hub: 2 } as const;

/**
 * Merges the sources' sets into one fleet: one row per cluster. A cluster reached two ways (a kubeconfig context and
 * a hub, joined by cluster ID: the `id.openshift.io` claim = ClusterVersion `spec.clusterID`) keeps the more direct
 * way (kubeconfig before hub); two clusters claiming one id keep the first and the other waits with the reason.
 * `learned` holds the cluster IDs engines read from their ClusterVersion, by member id.
 */
export function mergeMembers(
  sets: readonly (readonly MemberSpec[])[],
  learned: ReadonlyMap<string, string> = new Map(),
  now: string = new Date().toISOString(),
): MembershipPlan {
  const all = sets
    .flat()
    .map((member, order) => ({ member, order }))
    .sort(
      (a, b) => PRECEDENCE[a.member.discoveredBy.kind] - PRECEDENCE[b.member.discoveredBy.kind] || a.order - b.order,
    );
  const byId = new Map<string, MemberSpec>();
  const byClusterId = new Map<string, string>();
  const plan: MembershipPlan = { connect: [], waiting: [], joined: new Map() };
  for (const { member } of all) {
    const clusterID = member.clusterID ?? learned.get(member.id);
    const same = clusterID ? byClusterId.get(clusterID) : undefined;
    if (same !== undefined) {
      plan.joined.set(member.id, same);
      continue;
    }
    const taken = byId.get(member.id);
    if (taken) {
      const by = taken.discoveredBy;
      plan.waiting.push({
        id: `${member.id}@${member.discoveredBy.name}`,
        name: member.name,
        discoveredBy: member.discoveredBy,
        waiting: {
          reason: `the name "${member.id}" is already a cluster found by ${by.kind} ${by.name}`,
          since: 'waiting' in member ? member.waiting.since : now,
        },
      });
      continue;
    }
    byId.set(member.id, member);
    if (clusterID) byClusterId.set(clusterID, member.id);
    if (isConnectable(member)) plan.connect.push(member);
    else plan.waiting.push(member);
  }
  return plan;
}
