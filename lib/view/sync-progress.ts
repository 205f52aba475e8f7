import type { ClusterSummaryDto, FleetMembershipDto } from '@/lib/api/dto';
import { rowSynced } from '@/lib/health/tiers';

/** How far the fleet's first sync is: rows synced out of clusters found. */
export interface SyncProgress {
  synced: number;
  total: number;
  /** Every cluster found is synced. */
  done: boolean;
}

/**
 * Sync progress from the rows the page holds (the stream adds and updates them as clusters sync) and the fleet's
 * membership at the last list fetch (which also counts clusters found without a row). Rows the stream added since
 * that fetch count even before the next one.
 */
export function syncProgress(
  rows: readonly Pick<ClusterSummaryDto, 'sources'>[],
  membership: Pick<FleetMembershipDto, 'discovered'>,
): SyncProgress {
  const synced = rows.filter(rowSynced).length;
  const total = Math.max(membership.discovered, rows.length);
  return { synced, total, done: synced >= total };
}
