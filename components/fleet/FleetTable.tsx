import Link from 'next/link';
import type { ClusterSummaryDto } from '@/lib/api/dto';
import type { FleetSparkline } from '@/lib/charts/pick-sparkline';
import { unhealthySources, updateStateLabel, type FleetSortKey, type FleetView } from '@/lib/view/fleet-rows';
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

/** The fleet table: sortable headers are real buttons; `aria-sort` marks the sorted column. */
export function FleetTable({ rows, view, onSort, sparklines }: {
  rows: readonly ClusterSummaryDto[];
  view: FleetView;
  onSort: (key: FleetSortKey) => void;
  sparklines: Record<string, FleetSparkline | null | undefined>;
}) {
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
        {rows.map((c) => {
          const bad = unhealthySources(c);
          const spark = sparklines[c.id];
          return (
            <tr key={c.id} data-testid="cluster-row" data-cluster-id={c.id}>
              <th scope="row"><Link href={`/clusters/${encodeURIComponent(c.id)}`}>{c.name}</Link></th>
              <td>{c.version ?? 'unknown'}</td>
              <td>{c.desiredVersion ?? 'unknown'}</td>
              <td>{updateStateLabel(c)}</td>
              <td><SeverityBadge severity={c.worstSeverity} /></td>
              <td data-testid="row-sources">
                {c.sources.length === 0 ? <span className="muted">—</span>
                  : bad.length === 0 ? <span><span aria-hidden="true">● </span>all synced</span>
                    : <span className={styles.stale}><span aria-hidden="true">▲ </span>{bad.length} not synced ({[...new Set(bad.map((s) => s.status))].join(', ')})</span>}
              </td>
              <td className={styles.trend}>
                {spark === undefined ? <span className="muted">…</span>
                  : spark === null ? <span className="muted">no data</span>
                    : <Sparkline points={spark.points} label={spark.label} testId={`sparkline-${c.id}`} />}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
