'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { ClusterRoleDto } from '@/lib/api/dto';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import { SEVERITY_ORDER } from '@/lib/health/severity';
import {
  DEFAULT_FLEET_VIEW,
  fleetFacets,
  selectFleetRows,
  type FleetSortKey,
  type FleetView as FleetViewState,
  type UpdateFilter,
} from '@/lib/view/fleet-rows';
import { syncProgress } from '@/lib/view/sync-progress';
import { StreamStatusBadge } from '@/components/live/StreamStatusBadge';
import { useLiveStream } from '@/components/live/use-live-stream';
import { AppHeader } from '@/components/shell/AppHeader';
import { FleetMembership } from './FleetMembership';
import { FleetTable } from './FleetTable';
import { UpdateDurationsPanel } from './UpdateDurationsPanel';
import { useFleetUrlState } from './use-fleet-url-state';
import styles from './fleet.module.css';

function Select<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
}: {
  id: string;
  label: string;
  value: T | '';
  options: { value: T; label: string }[];
  onChange: (value: T | '') => void;
}) {
  return (
    <label htmlFor={id}>
      {label}
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as T | '')} data-testid={id}>
        <option value="">any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

const SEVERITY_OPTIONS = SEVERITY_ORDER.map((value) => ({
  value,
  label: value,
}));
const UPDATE_OPTIONS: { value: Exclude<UpdateFilter, ''>; label: string }[] = [
  { value: 'updating', label: 'updating' },
  { value: 'idle', label: 'idle' },
];
const ROLE_OPTIONS = (['standalone', 'management', 'hosted'] as ClusterRoleDto[]).map((value) => ({
  value,
  label: value,
}));

/** How often the fleet list is fetched again, so clusters that left the fleet leave the page. */
const LIST_REFRESH_MS = 15_000;
/** How often while a source lists its clusters for the first time (its count and its end show within a second). */
const LISTING_REFRESH_MS = 1_000;

/** The fleet page: every cluster with version, update state, worst finding, sources and a trend sparkline. */
export function FleetView() {
  const list = useQuery(clusterQueries.list());
  // Polled as well as streamed: a cluster its source removed leaves the list (the stream only adds and updates rows).
  // A plain timer, not `refetchInterval`: every streamed row update restarts that one, so it would never fire.
  const { refetch } = list;
  const listing = !!list.data?.membership?.sources.some((source) => source.listing);
  useEffect(() => {
    const timer = setInterval(() => void refetch(), listing ? LISTING_REFRESH_MS : LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refetch, listing]);
  const [view, setView] = useFleetUrlState();
  const clusters = useMemo(() => list.data?.clusters ?? [], [list.data]);
  // Rows only, for every cluster: a fleet of 500 streams summaries, not whole health documents.
  const stream = useLiveStream(list.isSuccess ? 'all' : [], 'summary');
  const facets = useMemo(() => fleetFacets(clusters), [clusters]);
  const membership = list.data?.membership;
  // Counted from the rows, which the stream keeps current; the membership is as fresh as the last fetch.
  const progress = useMemo(() => membership && syncProgress(clusters, membership), [clusters, membership]);
  const rows = useMemo(() => selectFleetRows(clusters, view), [clusters, view]);
  const filtered = (Object.keys(DEFAULT_FLEET_VIEW) as (keyof FleetViewState)[]).some(
    (key) => key !== 'sort' && key !== 'dir' && view[key] !== DEFAULT_FLEET_VIEW[key],
  );

  const onSort = (key: FleetSortKey): void =>
    setView({ sort: key, dir: view.sort === key && view.dir === 'asc' ? 'desc' : 'asc' });

  return (
    <>
      <AppHeader>
        <StreamStatusBadge status={stream} />
      </AppHeader>
      <main id="main" className={styles.main}>
        <h1>Fleet</h1>
        <div className={styles.toolbar}>
          <label htmlFor="fleet-filter">Filter clusters</label>
          <input
            id="fleet-filter"
            type="search"
            value={view.q}
            placeholder="name, version, state…"
            onChange={(e) => setView({ q: e.target.value })}
            data-testid="fleet-filter"
          />
          <div className={styles.filters} role="group" aria-label="Filters">
            <Select
              id="filter-severity"
              label="Severity"
              value={view.severity}
              options={SEVERITY_OPTIONS}
              onChange={(severity) => setView({ severity })}
            />
            <Select
              id="filter-update"
              label="Update"
              value={view.update}
              options={UPDATE_OPTIONS}
              onChange={(update) => setView({ update })}
            />
            <Select
              id="filter-role"
              label="Role"
              value={view.role}
              options={ROLE_OPTIONS}
              onChange={(role) => setView({ role })}
            />
            {facets.managementClusters.length ? (
              <Select
                id="filter-management"
                label="Management cluster"
                value={view.managedBy}
                options={facets.managementClusters.map((m) => ({ value: m.id, label: m.name }))}
                onChange={(managedBy) => setView({ managedBy })}
              />
            ) : null}
            <Select
              id="filter-version"
              label="Version"
              value={view.version}
              options={facets.versions.map((v) => ({ value: v, label: v }))}
              onChange={(version) => setView({ version })}
            />
            {filtered ? (
              <button
                type="button"
                className="btn btn-small"
                onClick={() => setView({ ...DEFAULT_FLEET_VIEW, sort: view.sort, dir: view.dir })}
              >
                Clear filters
              </button>
            ) : null}
          </div>
          <span className="muted" role="status" data-testid="fleet-count">
            {list.isSuccess ? `${rows.length} of ${clusters.length} clusters` : ''}
          </span>
        </div>
        {membership ? <FleetMembership membership={membership} progress={progress} /> : null}
        {list.isPending ? <p role="status">Loading clusters…</p> : null}
        {list.isError ? (
          <div role="alert">
            <p>Cannot load the fleet: {list.error.message}</p>
            <button type="button" className="btn" onClick={() => void list.refetch()}>
              Retry
            </button>
          </div>
        ) : null}
        {list.isSuccess ? (
          clusters.length === 0 ? (
            listing ? null : (
              <p>No clusters are watched.</p>
            )
          ) : rows.length === 0 ? (
            <p data-testid="fleet-no-match">No cluster matches these filters.</p>
          ) : (
            <FleetTable rows={rows} view={view} onSort={onSort} />
          )
        ) : null}
        {list.isSuccess && clusters.length > 0 ? <UpdateDurationsPanel /> : null}
      </main>
    </>
  );
}
