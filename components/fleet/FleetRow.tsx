'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ClusterSummaryDto, SeverityDto } from '@/lib/api/dto';
import { failureModeOf } from '@/lib/charts/detectors';
import { SEVERITY_ORDER } from '@/lib/health/severity';
import { pickSparkline } from '@/lib/charts/pick-sparkline';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import type { FleetEntry } from '@/lib/view/fleet-groups';
import { idleNote, sourcesCell, updateStateLabel } from '@/lib/view/fleet-rows';
import { formatDateTime } from '@/lib/view/format-time';
import { Sparkline } from '@/components/charts/Sparkline';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import styles from './fleet.module.css';

const COUNTED = ['critical', 'warning', 'info'] as const;

/** "3 hosted: 1 critical, 2 ok" for a management row. */
function hostedCounts(total: number, bySeverity: Record<SeverityDto, number>): string {
  const parts = SEVERITY_ORDER.filter((severity) => bySeverity[severity] > 0).map(
    (severity) => `${bySeverity[severity]} ${severity}`,
  );
  return `${total} hosted${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** Severity, the worst finding's failure-mode letter and title, and the count of findings by severity. */
function WorstFindingCell({ row }: { row: ClusterSummaryDto }) {
  const { worstFinding, findingCounts } = row;
  const letter = worstFinding ? failureModeOf(worstFinding.detector) : undefined;
  const counts = COUNTED.filter((severity) => findingCounts[severity] > 0).map(
    (severity) => `${findingCounts[severity]} ${severity}`,
  );
  return (
    <div className={styles.worst}>
      <SeverityBadge severity={row.worstSeverity} />
      {worstFinding ? (
        <span className={styles.worstTitle} title={worstFinding.title}>
          {letter ? (
            <abbr className={styles.mode} title={`Failure mode ${letter}`}>
              {letter}
            </abbr>
          ) : null}
          {worstFinding.title}
        </span>
      ) : null}
      {counts.length ? (
        <span className={`muted ${styles.counts}`} data-testid="row-counts">
          {counts.join(' · ')}
        </span>
      ) : null}
    </div>
  );
}

/**
 * The trend of one row (its worst finding's signal, or the update's completion), fetched only while the row is
 * rendered (a 500-cluster fleet shows a screenful at a time).
 */
function TrendCell({ row }: { row: ClusterSummaryDto }) {
  const series = useQuery(clusterQueries.sparkline(row.id));
  if (series.isError) return <span className="muted">no data</span>;
  if (!series.data) return <span className="muted">…</span>;
  const spark = pickSparkline(row, series.data);
  return spark ? <Sparkline spark={spark} testId={`sparkline-${row.id}`} /> : <span className="muted">no data</span>;
}

/** One line of the fleet table; `index` is its position among all lines (for virtual scrolling and aria-rowindex). */
export function FleetRow({
  entry,
  index,
  open,
  onToggle,
  measure,
}: {
  entry: FleetEntry;
  index: number;
  open: boolean;
  onToggle: (id: string) => void;
  measure?: (element: HTMLTableRowElement | null) => void;
}) {
  const { row: c, depth, hosted } = entry;
  const cell = sourcesCell(c);
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index + 2}
      data-testid="cluster-row"
      data-cluster-id={c.id}
      data-cluster-name={c.name}
      data-role={c.role}
      data-depth={depth}
      className={depth ? styles.hostedRow : undefined}
    >
      <th scope="row">
        {depth ? (
          <span className={styles.branch} aria-hidden="true">
            └{' '}
          </span>
        ) : null}
        <Link href={`/clusters/${encodeURIComponent(c.id)}`} data-row-link>
          {c.name}
        </Link>
        {depth && c.managedBy ? <span className="visually-hidden"> (hosted on {c.managedBy})</span> : null}
        {c.discoveredBy?.kind === 'hub' ? (
          <span className={`muted ${styles.via}`} data-testid="row-discovered-by">
            {' '}
            via hub {c.discoveredBy.name}
          </span>
        ) : null}
        {hosted ? (
          <button
            type="button"
            className={styles.groupToggle}
            aria-expanded={open}
            data-testid="hosted-toggle"
            onClick={() => onToggle(c.id)}
            aria-label={`${open ? 'Collapse' : 'Expand'} ${hostedCounts(hosted.total, hosted.bySeverity)} clusters of ${c.name}`}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'} </span>
            {hostedCounts(hosted.total, hosted.bySeverity)}
          </button>
        ) : null}
      </th>
      <td>{c.version ?? 'unknown'}</td>
      <td>{c.desiredVersion ?? 'unknown'}</td>
      <td data-testid="row-update" data-phase={c.updatePhase}>
        {updateStateLabel(c)}
      </td>
      <td data-testid="row-worst">
        <WorstFindingCell row={c} />
      </td>
      <td data-testid="row-sources">
        {c.reachability ? (
          <span className={styles.stale} data-testid="row-hub-unavailable" title={c.reachability.message}>
            <span aria-hidden="true">▲ </span>
            hub reports unavailable since {formatDateTime(c.reachability.since)}
          </span>
        ) : cell.state === 'none' ? (
          <span className="muted">{cell.text}</span>
        ) : cell.state === 'synced' ? (
          <span title={idleNote(c)} data-tier={c.activity?.tier}>
            <span aria-hidden="true">● </span>
            {cell.text}
          </span>
        ) : (
          <span className={styles.stale}>
            <span aria-hidden="true">▲ </span>
            {cell.text}
          </span>
        )}
      </td>
      <td className={styles.trend}>
        <TrendCell row={c} />
      </td>
    </tr>
  );
}
