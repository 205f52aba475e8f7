'use client';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState, type KeyboardEvent } from 'react';
import type { ClusterSummaryDto } from '@/lib/api/dto';
import { groupFleetRows } from '@/lib/view/fleet-groups';
import type { FleetSortKey, FleetView } from '@/lib/view/fleet-rows';
import { FleetRow } from './FleetRow';
import styles from './fleet.module.css';

const COLUMNS: { key: FleetSortKey; label: string }[] = [
  { key: 'name', label: 'Cluster' },
  { key: 'version', label: 'Version' },
  { key: 'desired', label: 'Desired' },
  { key: 'update', label: 'Update' },
  { key: 'severity', label: 'Worst finding' },
];

/** Above this many lines only the visible rows (plus a margin) are in the DOM; below it every row is. */
const VIRTUALIZE_ABOVE = 60;
const ROW_ESTIMATE_PX = 58;
const NAVIGATION_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp']);

/**
 * The fleet table: sortable headers are real buttons; `aria-sort` marks the sorted column. Hosted clusters sit
 * under their management cluster, whose row collapses them and counts them by worst severity. A large fleet is
 * virtualized (rows outside the scroll window are not rendered; `aria-rowcount`/`aria-rowindex` keep the count for
 * assistive technology), and the arrow, Page and Home/End keys move between rows' links, scrolling as they go.
 */
export function FleetTable({
  rows,
  view,
  onSort,
}: {
  rows: readonly ClusterSummaryDto[];
  view: FleetView;
  onSort: (key: FleetSortKey) => void;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string): void =>
    setCollapsed((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const entries = groupFleetRows(rows, collapsed);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = entries.length > VIRTUALIZE_ABOVE;
  // TanStack Virtual hands back fresh functions each render; nothing here is compiled by React Compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 12,
    enabled: virtual,
    getItemKey: (index) => entries[index].row.id,
  });
  const items = virtual ? virtualizer.getVirtualItems() : entries.map((_, index) => ({ index, start: 0, end: 0 }));
  const paddingTop = virtual && items.length ? items[0].start : 0;
  const paddingBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;

  const focusRow = (index: number): void => {
    const target = Math.max(0, Math.min(entries.length - 1, index));
    if (virtual) virtualizer.scrollToIndex(target, { align: 'auto' });
    // The row may only exist after the virtualizer re-rendered for the new scroll position.
    const tryFocus = (attempts: number) => {
      const link = scroller.current?.querySelector<HTMLAnchorElement>(`tr[data-index="${target}"] a[data-row-link]`);
      if (link) link.focus();
      else if (attempts > 0) requestAnimationFrame(() => tryFocus(attempts - 1));
    };
    tryFocus(10);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>): void => {
    if (!NAVIGATION_KEYS.has(event.key)) return;
    const current = (event.target as HTMLElement).closest('tr')?.getAttribute('data-index');
    if (current === null || current === undefined) return;
    const at = Number(current);
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 600) / ROW_ESTIMATE_PX) - 1);
    const next = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      Home: 0,
      End: entries.length - 1,
      PageDown: at + page,
      PageUp: at - page,
    }[event.key]!;
    event.preventDefault();
    focusRow(next);
  };

  return (
    <div ref={scroller} className={virtual ? styles.scroller : undefined} data-testid="fleet-scroller">
      <table className={`table ${styles.table}`} data-testid="fleet-table" aria-rowcount={entries.length + 1}>
        <caption className="visually-hidden">
          Clusters, {rows.length} shown. Column headers sort the table; arrow keys move between clusters.
        </caption>
        <thead className={styles.head}>
          <tr aria-rowindex={1}>
            {COLUMNS.map((c) => {
              const sorted = view.sort === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={sorted ? (view.dir === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  <button type="button" className={styles.sortButton} onClick={() => onSort(c.key)}>
                    {c.label}
                    <span aria-hidden="true">{sorted ? (view.dir === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
                  </button>
                </th>
              );
            })}
            <th scope="col">Sources</th>
            <th scope="col">Trend</th>
          </tr>
        </thead>
        <tbody onKeyDown={onKeyDown}>
          {paddingTop > 0 ? <tr aria-hidden="true" style={{ height: paddingTop }} /> : null}
          {items.map(({ index }) => (
            <FleetRow
              key={entries[index].row.id}
              entry={entries[index]}
              index={index}
              open={!collapsed.has(entries[index].row.id)}
              onToggle={toggle}
              measure={virtual ? virtualizer.measureElement : undefined}
            />
          ))}
          {paddingBottom > 0 ? <tr aria-hidden="true" style={{ height: paddingBottom }} /> : null}
        </tbody>
      </table>
    </div>
  );
}
