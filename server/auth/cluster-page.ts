import 'server-only';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { getFleet } from '@/server/engine/fleet';
import type { VisibleCluster } from './api-route';

/** A cluster's health as a viewer opens its page: while it is looked at, the cluster reads its active tier too. */
export function healthOnOpen(cluster: VisibleCluster): ClusterHealthDto {
  getFleet().lookedAt(cluster.member.id);
  return cluster.health;
}
