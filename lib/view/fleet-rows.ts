import type { ClusterSummaryDto } from '@/lib/api/dto';
import { compareVersions } from '@/lib/charts/compare-versions';
import { severityRank } from './severity';

/** Sortable columns of the fleet table. */
export const FLEET_SORT_KEYS = ['name', 'version', 'desired', 'update', 'severity'] as const;
export type FleetSortKey = (typeof FLEET_SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

/** Fleet table view state, as kept in the URL (`?q=&sort=&dir=`). */
export interface FleetView {
  q: string;
  sort: FleetSortKey;
  dir: SortDir;
}

/** Default view: worst clusters first. */
export const DEFAULT_FLEET_VIEW: FleetView = { q: '', sort: 'severity', dir: 'asc' };

/** Reads the fleet view from URL search params; unknown values fall back to the defaults. */
export function parseFleetView(params: URLSearchParams): FleetView {
  const sort = params.get('sort');
  const dir = params.get('dir');
  return {
    q: params.get('q') ?? '',
    sort: (FLEET_SORT_KEYS as readonly string[]).includes(sort ?? '') ? (sort as FleetSortKey) : DEFAULT_FLEET_VIEW.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_FLEET_VIEW.dir,
  };
}

/** Update state shown for a cluster row. */
export function updateStateLabel(c: Pick<ClusterSummaryDto, 'updating' | 'version' | 'desiredVersion'>): string {
  if (c.updating) return c.desiredVersion ? `Updating to ${c.desiredVersion}` : 'Updating';
  return 'Idle';
}

const byVersion = (a: string | null, b: string | null): number => (a && b ? compareVersions(a, b) : a ? 1 : b ? -1 : 0);

/**
 * Filters rows by a case-insensitive substring of name, id, versions or update state, and sorts them by `sort`
 * (ties broken by name so the order is stable).
 */
export function selectFleetRows(rows: readonly ClusterSummaryDto[], view: FleetView): ClusterSummaryDto[] {
  const q = view.q.trim().toLowerCase();
  const match = (c: ClusterSummaryDto): boolean =>
    !q || [c.name, c.id, c.version ?? '', c.desiredVersion ?? '', updateStateLabel(c), c.worstSeverity, c.worstFinding?.title ?? ''].some((s) => s.toLowerCase().includes(q));
  const cmp = (a: ClusterSummaryDto, b: ClusterSummaryDto): number => {
    switch (view.sort) {
      case 'name': return a.name.localeCompare(b.name);
      case 'version': return byVersion(a.version, b.version);
      case 'desired': return byVersion(a.desiredVersion, b.desiredVersion);
      case 'update': return Number(b.updating) - Number(a.updating);
      case 'severity': return severityRank(a.worstSeverity) - severityRank(b.worstSeverity);
    }
  };
  const sign = view.dir === 'asc' ? 1 : -1;
  return rows.filter(match).sort((a, b) => sign * cmp(a, b) || a.name.localeCompare(b.name));
}

/** Sources of a cluster that are not synced, for a compact live/stale summary. */
export function unhealthySources(c: Pick<ClusterSummaryDto, 'sources'>): ClusterSummaryDto['sources'] {
  return c.sources.filter((s) => s.status !== 'synced');
}
