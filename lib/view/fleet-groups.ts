/**
 * The fleet table groups hosted clusters under their management cluster: each management row is followed by its
 * hosted rows (in the table's current order) and carries their count by worst severity; a collapsed management
 * row hides them. Hosted rows whose management cluster is not shown (filtered out) stand on their own.
 */
import type { ClusterSummaryDto, SeverityDto } from '@/lib/api/dto';

/** One visible line of the fleet table. */
export interface FleetEntry {
  row: ClusterSummaryDto;
  /** 0 for top-level rows, 1 for hosted rows under their management row. */
  depth: 0 | 1;
  /** On management rows: its hosted rows (shown or not) and their count per worst severity. */
  hosted?: { total: number; bySeverity: Record<SeverityDto, number> };
}

/** Groups already filtered and sorted rows; `collapsed` holds management ids whose hosted rows are hidden. */
export function groupFleetRows(
  rows: readonly ClusterSummaryDto[],
  collapsed: ReadonlySet<string> = new Set(),
): FleetEntry[] {
  const shown = new Set(rows.map((row) => row.id));
  const children = new Map<string, ClusterSummaryDto[]>();
  for (const row of rows) {
    if (row.role === 'hosted' && row.managedBy && shown.has(row.managedBy)) {
      children.set(row.managedBy, [...(children.get(row.managedBy) ?? []), row]);
    }
  }
  const entries: FleetEntry[] = [];
  for (const row of rows) {
    if (row.role === 'hosted' && row.managedBy && shown.has(row.managedBy)) continue;
    const hosted = children.get(row.id);
    if (!hosted) {
      entries.push({ row, depth: 0 });
      continue;
    }
    const bySeverity: Record<SeverityDto, number> = { critical: 0, warning: 0, info: 0, ok: 0 };
    for (const child of hosted) bySeverity[child.worstSeverity]++;
    entries.push({ row, depth: 0, hosted: { total: hosted.length, bySeverity } });
    if (!collapsed.has(row.id)) for (const child of hosted) entries.push({ row: child, depth: 1 });
  }
  return entries;
}
