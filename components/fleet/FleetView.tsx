'use client';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { pickSparkline, type FleetSparkline } from '@/lib/charts/pick-sparkline';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import { selectFleetRows, type FleetSortKey } from '@/lib/view/fleet-rows';
import { StreamStatusBadge } from '@/components/live/StreamStatusBadge';
import { useLiveStream } from '@/components/live/use-live-stream';
import { AppHeader } from '@/components/shell/AppHeader';
import { FleetTable } from './FleetTable';
import { useFleetUrlState } from './use-fleet-url-state';
import styles from './fleet.module.css';

/** The fleet page: every cluster with version, update state, worst finding, sources and a trend sparkline. */
export function FleetView() {
  const list = useQuery(clusterQueries.list());
  const [view, setView] = useFleetUrlState();
  const clusters = useMemo(() => list.data?.clusters ?? [], [list.data]);
  const ids = useMemo(() => clusters.map((c) => c.id), [clusters]);
  const stream = useLiveStream(ids);
  const series = useQueries({ queries: ids.map((id) => clusterQueries.sparkline(id)) });

  const sparklines = useMemo(() => {
    const out: Record<string, FleetSparkline | null | undefined> = {};
    ids.forEach((id, i) => { out[id] = series[i]?.data ? pickSparkline(series[i].data) : series[i]?.isError ? null : undefined; });
    return out;
  }, [ids, series]);
  const rows = useMemo(() => selectFleetRows(clusters, view), [clusters, view]);

  const onSort = (key: FleetSortKey): void =>
    setView({ sort: key, dir: view.sort === key && view.dir === 'asc' ? 'desc' : 'asc' });

  return (
    <>
      <AppHeader><StreamStatusBadge status={stream} /></AppHeader>
      <main id="main" className={styles.main}>
        <h1>Fleet</h1>
        <div className={styles.toolbar}>
          <label htmlFor="fleet-filter">Filter clusters</label>
          <input id="fleet-filter" type="search" value={view.q} placeholder="name, version, state…"
            onChange={(e) => setView({ q: e.target.value })} data-testid="fleet-filter" />
          <span className="muted" role="status">{list.isSuccess ? `${rows.length} of ${clusters.length} clusters` : ''}</span>
        </div>
        {list.isPending ? <p role="status">Loading clusters…</p> : null}
        {list.isError ? (
          <div role="alert">
            <p>Cannot load the fleet: {list.error.message}</p>
            <button type="button" className="btn" onClick={() => void list.refetch()}>Retry</button>
          </div>
        ) : null}
        {list.isSuccess ? (
          clusters.length === 0 ? <p>No clusters are watched.</p>
            : <FleetTable rows={rows} view={view} onSort={onSort} sparklines={sparklines} />
        ) : null}
      </main>
    </>
  );
}
