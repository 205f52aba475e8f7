import type { ClusterRoleDto, ClusterSummaryDto, SeverityDto } from '@/lib/api/dto';
import { compareVersions } from '@/lib/k8s/version';
import { SEVERITY_ORDER, severityRank } from '@/lib/health/severity';

/** Sortable columns of the fleet table. */
export const FLEET_SORT_KEYS = ['name', 'version', 'desired', 'update', 'severity'] as const;
export type FleetSortKey = (typeof FLEET_SORT_KEYS)[number];
export type SortDir = 'asc' | 'desc';

/** Update-state filter values. */
export type UpdateFilter = '' | 'updating' | 'idle';

/**
 * Fleet table view state, as kept in the URL (`?q=&sort=&dir=&sev=&upd=&role=&mgmt=&ver=`): a text filter, the sort,
 * and exact filters on worst severity, update state, role, management cluster and version ('' = any).
 */
export interface FleetView {
  q: string;
  sort: FleetSortKey;
  dir: SortDir;
  severity: SeverityDto | '';
  update: UpdateFilter;
  role: ClusterRoleDto | '';
  /** A management cluster's id: it and the clusters it hosts. */
  managedBy: string;
  /** Current or desired version. */
  version: string;
}

/** Default view: worst clusters first, nothing filtered. */
export const DEFAULT_FLEET_VIEW: FleetView = {
  q: '',
  sort: 'severity',
  dir: 'asc',
  severity: '',
  update: '',
  role: '',
  managedBy: '',
  version: '',
};

/** URL parameter of each filter field. */
export const FLEET_FILTER_PARAMS = {
  severity: 'sev',
  update: 'upd',
  role: 'role',
  managedBy: 'mgmt',
  version: 'ver',
} as const;

const ROLE_VALUES: readonly string[] = ['standalone', 'management', 'hosted'];

/** Reads the fleet view from URL search params; unknown values fall back to the defaults. */
export function parseFleetView(params: URLSearchParams): FleetView {
  const sort = params.get('sort');
  const dir = params.get('dir');
  const pick = <T extends string>(value: string | null, allowed: readonly string[]): T | '' =>
    value && allowed.includes(value) ? (value as T) : '';
  return {
    q: params.get('q') ?? '',
    sort: (FLEET_SORT_KEYS as readonly string[]).includes(sort ?? '')
      ? (sort as FleetSortKey)
      : DEFAULT_FLEET_VIEW.sort,
    dir: dir === 'asc' || dir === 'desc' ? dir : DEFAULT_FLEET_VIEW.dir,
    severity: pick<SeverityDto>(params.get(FLEET_FILTER_PARAMS.severity), SEVERITY_ORDER),
    update: pick<'updating' | 'idle'>(params.get(FLEET_FILTER_PARAMS.update), ['updating', 'idle']),
    role: pick<ClusterRoleDto>(params.get(FLEET_FILTER_PARAMS.role), ROLE_VALUES),
    managedBy: params.get(FLEET_FILTER_PARAMS.managedBy) ?? '',
    version: params.get(FLEET_FILTER_PARAMS.version) ?? '',
  };
}

/** The URL query of a view, defaults omitted (the inverse of {@link parseFleetView}). */
export function fleetViewQuery(view: FleetView): string {
  const out = new URLSearchParams();
  if (view.q) out.set('q', view.q);
  if (view.sort !== DEFAULT_FLEET_VIEW.sort) out.set('sort', view.sort);
  if (view.dir !== DEFAULT_FLEET_VIEW.dir) out.set('dir', view.dir);
  for (const [field, param] of Object.entries(FLEET_FILTER_PARAMS) as [keyof typeof FLEET_FILTER_PARAMS, string][]) {
    if (view[field]) out.set(param, view[field]);
  }
  return out.toString();
}

/** The choices the filter controls offer for these rows: versions present and management clusters. */
export function fleetFacets(rows: readonly ClusterSummaryDto[]): {
  versions: string[];
  managementClusters: { id: string; name: string }[];
} {
  const versions = new Set<string>();
  for (const row of rows) {
    if (row.version) versions.add(row.version);
    if (row.desiredVersion) versions.add(row.desiredVersion);
  }
  return {
    versions: [...versions].sort((a, b) => compareVersions(b, a)),
    managementClusters: rows
      .filter((row) => row.role === 'management')
      .map((row) => ({ id: row.id, name: row.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** Update state shown for a cluster row: the update state's label (`lib/cluster/update-state`) when the row has it. */
export function updateStateLabel(
  c: Pick<ClusterSummaryDto, 'updating' | 'version' | 'desiredVersion' | 'updateLabel'>,
): string {
  if (c.updateLabel) return c.updateLabel;
  if (c.updating) return c.desiredVersion ? `Updating to ${c.desiredVersion}` : 'Updating';
  return 'Idle';
}

/** Idle only when known to be: a row whose update state is unknown is neither updating nor idle. */
function isIdle(c: Pick<ClusterSummaryDto, 'updating' | 'updatePhase'>): boolean {
  return c.updatePhase ? c.updatePhase === 'idle' : !c.updating;
}

const byVersion = (a: string | null, b: string | null): number => (a && b ? compareVersions(a, b) : a ? 1 : b ? -1 : 0);

/**
 * Filters rows by the exact filters and a case-insensitive substring of name, id, versions or update state, and sorts them by `sort`
 * (ties broken by name so the order is stable).
 */
export function selectFleetRows(rows: readonly ClusterSummaryDto[], view: FleetView): ClusterSummaryDto[] {
  const q = view.q.trim().toLowerCase();
  const match = (c: ClusterSummaryDto): boolean =>
    (!view.severity || c.worstSeverity === view.severity) &&
    (!view.update || (view.update === 'updating' ? c.updating : isIdle(c))) &&
    (!view.role || c.role === view.role) &&
    (!view.managedBy || c.id === view.managedBy || c.managedBy === view.managedBy) &&
    (!view.version || c.version === view.version || c.desiredVersion === view.version) &&
    (!q ||
      [
        c.name,
        c.id,
        c.version ?? '',
        c.desiredVersion ?? '',
        updateStateLabel(c),
        c.worstSeverity,
        c.worstFinding?.title ?? '',
      ].some((s) => s.toLowerCase().includes(q)));
  const cmp = (a: ClusterSummaryDto, b: ClusterSummaryDto): number => {
    switch (view.sort) {
      case 'name':
        return a.name.localeCompare(b.name);
      case 'version':
        return byVersion(a.version, b.version);
      case 'desired':
        return byVersion(a.desiredVersion, b.desiredVersion);
      case 'update':
        return Number(b.updating) - Number(a.updating);
      case 'severity':
        return severityRank(a.worstSeverity) - severityRank(b.worstSeverity);
    }
  };
  const sign = view.dir === 'asc' ? 1 : -1;
  return rows.filter(match).sort((a, b) => sign * cmp(a, b) || a.name.localeCompare(b.name));
}

/** What a fleet row's sources cell says: nothing to say, all synced, or how many are behind and how. */
export interface SourcesCell {
  state: 'none' | 'synced' | 'behind';
  text: string;
}

/**
 * The fleet row's sources cell: "—" without sources, "all synced" ("synced · idle tier" for an idle cluster) when none
 * is behind, else "N not synced (statuses)". An idle cluster's active-tier sources wait for activity: not read on
 * purpose, not behind (the row says so from its activity); a source that does not apply to the cluster
 * (upstream-only, on OpenShift) is not behind either (see `sourceUpToDate`).
 */
export function sourcesCell(c: Pick<ClusterSummaryDto, 'sources' | 'activity'>): SourcesCell {
  const { total, behind } = c.sources;
  if (total === 0) return { state: 'none', text: '—' };
  if (behind.length === 0) return { state: 'synced', text: idleNote(c) ? 'synced · idle tier' : 'all synced' };
  return {
    state: 'behind',
    text: `${behind.length} not synced (${[...new Set(behind.map((s) => s.status))].join(', ')})`,
  };
}

/** The row's note for an idle cluster: what it does not read and why; undefined while it reads everything. */
export function idleNote(c: Pick<ClusterSummaryDto, 'activity'>): string | undefined {
  if (c.activity?.tier !== 'always') return undefined;
  return `idle (not updating, no finding, not viewed): not reading ${c.activity.waiting.join('; ')}`;
}
