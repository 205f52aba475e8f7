'use client';
import Link from 'next/link';
import { useState } from 'react';
import type { ClusterSummaryDto, SeverityDto } from '@/lib/api/dto';
import type { FleetSparkline } from '@/lib/charts/pick-sparkline';
import { unhealthySources, updateStateLabel, type FleetSortKey, type FleetView } from '@/lib/view/fleet-rows';
import { groupFleetRows } from '@/lib/view/fleet-groups';
import { failureModeOf } from '@/lib/charts/detectors';
import { Sparkline } from '@/components/charts/Sparkline';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import styles from './fleet.module.css';

const COLUMNS: { key: FleetSortKey; label: string }[] = [
  { key: 'name', label: 'Cluster' },
  { key: 'version', label: 'Version' },
  { key: 'desired', label: 'Desired' },
  { key: 'update', label: 'Update' },
  { key: 'severity', label: 'Worst finding' },
];

const SEVERITIES: SeverityDto[] = ['critical', 'warning', 'info', 'ok'];

/** "3 hosted: 1 critical, 2 ok" for a management row. */
function hostedCounts(total: number, bySeverity: Record<SeverityDto, number>): string {
  const parts = SEVERITIES.filter((severity) => bySeverity[severity] > 0).map((severity) => `${bySeverity[severity]} ${severity}`);
  return `${total} hosted${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** Severity, the worst finding's failure-mode letter and title, and the count of findings by severity. */
function WorstFindingCell({ row }: { row: ClusterSummaryDto }) {
  const { worstFinding, findingCounts } = row;
  const letter = worstFinding ? failureModeOf(worstFinding.detector) : undefined;
  const counts = COUNTED.filter((severity) => findingCounts[severity] > 0).map((severity) => `${findingCounts[severity]} ${severity}`);
  return (
    <div className={styles.worst}>
      <SeverityBadge severity={row.worstSeverity} />
      {worstFinding ? (
        <span className={styles.worstTitle} title={worstFinding.title}>
          {letter ? <abbr className={styles.mode} title={`Failure mode ${letter}`}>{letter}</abbr> : null}{worstFinding.title}
        </span>
      ) : null}
      {counts.length ? <span className={`muted ${styles.counts}`} data-testid="row-counts">{counts.join(' · ')}</span> : null}
    </div>
  );
}

const COUNTED = ['critical', 'warning', 'info'] as const;

/**
 * The fleet table: sortable headers are real buttons; `aria-sort` marks the sorted column. Hosted clusters sit
 * under their management cluster, whose row collapses them and counts them by worst severity.
 */
export function FleetTable({ rows, view, onSort, sparklines }: {
  rows: readonly ClusterSummaryDto[];
  view: FleetView;
  onSort: (key: FleetSortKey) => void;
  sparklines: Record<string, FleetSparkline | null | undefined>;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string): void => setCollapsed((previous) => {
    const next = new Set(previous);
    if (!next.delete(id)) next.add(id);
    return next;
  });
  const entries = groupFleetRows(rows, collapsed);
  return (
    <table className={`table ${styles.table}`} data-testid="fleet-table">
      <caption className="visually-hidden">Clusters, {rows.length} shown. Column headers sort the table.</caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => {
            const sorted = view.sort === c.key;
            return (
              <th key={c.key} scope="col" aria-sort={sorted ? (view.dir === 'asc' ? 'ascending' : 'descending') : undefined}>
                <button type="button" className={styles.sortButton} onClick={() => onSort(c.key)}>
                  {c.label}<span aria-hidden="true">{sorted ? (view.dir === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
                </button>
              </th>
            );
          })}
          <th scope="col">Sources</th>
          <th scope="col">Trend</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(({ row: c, depth, hosted }) => {
          const bad = unhealthySources(c);
          const spark = sparklines[c.id];
          const open = !collapsed.has(c.id);
          return (
            <tr key={c.id} data-testid="cluster-row" data-cluster-id={c.id} data-cluster-name={c.name} data-role={c.role} data-depth={depth}
              className={depth ? styles.hostedRow : undefined}>
              <th scope="row">
                {depth ? <span className={styles.branch} aria-hidden="true">└ </span> : null}
                <Link href={`/clusters/${encodeURIComponent(c.id)}`}>{c.name}</Link>
                {depth && c.managedBy ? <span className="visually-hidden"> (hosted on {c.managedBy})</span> : null}
                {hosted ? (
                  <button type="button" className={styles.groupToggle} aria-expanded={open} data-testid="hosted-toggle"
                    onClick={() => toggle(c.id)} aria-label={`${open ? 'Collapse' : 'Expand'} ${hostedCounts(hosted.total, hosted.bySeverity)} clusters of ${c.name}`}>
                    <span aria-hidden="true">{open ? '▾' : '▸'} </span>{hostedCounts(hosted.total, hosted.bySeverity)}
                  </button>
                ) : null}
              </th>
              <td>{c.version ?? 'unknown'}</td>
              <td>{c.desiredVersion ?? 'unknown'}</td>
              <td>{updateStateLabel(c)}</td>
              <td data-testid="row-worst"><WorstFindingCell row={c} /></td>
              <td data-testid="row-sources">
                {c.sources.length === 0 ? <span className="muted">—</span>
                  : bad.length === 0 ? <span><span aria-hidden="true">● </span>all synced</span>
                    : <span className={styles.stale}><span aria-hidden="true">▲ </span>{bad.length} not synced ({[...new Set(bad.map((s) => s.status))].join(', ')})</span>}
              </td>
              <td className={styles.trend}>
                {spark === undefined ? <span className="muted">…</span>
                  : spark === null ? <span className="muted">no data</span>
                    : <Sparkline points={spark.points} label={spark.label} caption={spark.caption} testId={`sparkline-${c.id}`} />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
