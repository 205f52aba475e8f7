'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ClusterHealthDto, ClusterSeriesDto, FindingDto } from '@/lib/api/dto';
import { detectorSpec } from '@/lib/charts/detectors';
import { toHistoryTimeline } from '@/lib/charts/to-history-timeline';
import { ClusterLoadError } from './ClusterLoadError';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import { sortFindings } from '@/lib/health/finding-order';
import { updateStateOfHealth } from '@/lib/cluster/update-state';
import { useLiveStream } from '@/components/live/use-live-stream';
import { useNow } from '@/components/live/use-now';
import { StreamStatusBadge } from '@/components/live/StreamStatusBadge';
import { AppHeader } from '@/components/shell/AppHeader';
import { CreateIncidentButton } from '@/components/incidents/CreateIncidentButton';
import { rangeStart, type TimeRange } from '@/lib/charts/time-range';
import { formatAsOf } from '@/lib/view/format-time';
import { defaultIncidentTitle } from '@/lib/incidents/incident-title';
import { ClusterHeader } from './ClusterHeader';
import { DetectorPanels } from './DetectorPanels';
import { EvidenceDrawer } from './EvidenceDrawer';
import { FindingsList } from './FindingsList';
import { HiddenFindingsNote } from './HiddenFindingsNote';
import { HistoryTimeline } from './HistoryTimeline';
import { RangePicker } from './RangePicker';
import { UpdateProgressSection } from './UpdateProgressSection';
import { BeforeUpdateSection } from './BeforeUpdateSection';
import { HostedControlPlaneSection } from './HostedControlPlaneSection';
import { HostedClustersSection } from './HostedClustersSection';
import { HiddenViewNote } from './HiddenViewNote';
import { useClusterUrlState } from './use-cluster-url-state';
import { linkedFinding } from '@/lib/view/cluster-url-state';
import { FindingHistorySection } from './FindingHistorySection';
import { TimeTravelBanner } from './TimeTravelBanner';
import { TimeTravelFindings } from './TimeTravelFindings';
import { historyQueries } from '@/lib/queries/history-queries';
import { openAt } from '@/lib/history/timeline';
import { seriesUntil } from '@/lib/charts/series-until';
import styles from './cluster.module.css';

/** Data shown read-only instead of the live cluster (e.g. a must-gather analysis). */
export interface StaticClusterData {
  health: ClusterHealthDto;
  series: ClusterSeriesDto;
  /** What the data is, shown where the live stream status would be (e.g. `must-gather`). */
  source: ReactNode;
  /** Extra actions in the app header (e.g. "Create incident"). */
  actions?: ReactNode;
  /** Shown above the cluster header (e.g. what froze this view, and when). */
  banner?: ReactNode;
  /** Actions beside the cluster header's copy-link button (e.g. "Export JSON"). */
  headerActions?: ReactNode;
  /** Shown after the history (e.g. an incident's redaction report). */
  appendix?: ReactNode;
  /** The moment ages are relative to (epoch ms); default: the series' `now`. */
  now?: number;
  /** When the data was captured (epoch ms): state that was live then (sources, update, findings) says "as of" it. */
  asOf?: number;
  /** The chart range of a URL without one (a frozen incident opens on its whole window). */
  defaultRange?: TimeRange;
}

/**
 * The cluster page: header, findings, detector panels, update progress, history, evidence drawer — all live, or
 * read-only from `data` (ages are then relative to the data's own clock).
 */
export function ClusterView({ id, data }: { id: string; data?: StaticClusterData }) {
  const live = data === undefined;
  const health = useQuery({ ...clusterQueries.health(id), enabled: live });
  const series = useQuery({ ...clusterQueries.series(id), enabled: live });
  const [url, setUrl] = useClusterUrlState(data?.defaultRange);
  const stream = useLiveStream(live && health.isSuccess ? [id] : []);
  const wallNow = useNow();
  const now = data ? (data.now ?? data.series.now) : wallNow;
  const healthData = data?.health ?? health.data;
  // Time travel (`?at=`) is a view of the live cluster's history; a frozen view (incident, must-gather) ignores it.
  const at = live && url.at ? Date.parse(url.at) : null;
  const then = useQuery({ ...historyQueries.timeline(id, { from: at ?? 0, to: at ?? 0 }), enabled: at !== null });
  const until = useMemo(
    () => (at !== null && series.data ? seriesUntil(series.data, at) : undefined),
    [at, series.data],
  );
  const thenOpen = useMemo(() => (at !== null && then.data ? openAt(then.data.entries, at) : []), [at, then.data]);
  const seriesData = data?.series ?? until?.series ?? series.data;
  const loaded = !live || health.isSuccess;

  const findings = useMemo(() => sortFindings(healthData?.findings ?? []), [healthData]);
  const history = useMemo(() => toHistoryTimeline(healthData?.cluster.history ?? []), [healthData]);

  // The drawer follows the finding id, so a live update refreshes it; a finding that disappears stays readable.
  const current = url.finding ? linkedFinding(findings, url.finding) : undefined;
  const [remembered, setRemembered] = useState<FindingDto | undefined>(undefined);
  if (current && current !== remembered) setRemembered(current);
  const drawerFinding = current ?? (remembered?.id === url.finding ? remembered : undefined);

  // An alert's link names the detector: once its finding is known, the URL names that finding, as a click would.
  useEffect(() => {
    if (current && url.finding && current.id !== url.finding) setUrl({ finding: current.id });
  }, [current, url.finding, setUrl]);

  const selectFinding = useCallback(
    (f: FindingDto) => {
      setUrl({ finding: f.id, ...(detectorSpec(f.detector) ? { panel: f.detector } : {}) });
    },
    [setUrl],
  );
  const closeDrawer = useCallback(() => {
    const closing = url.finding;
    setUrl({ finding: null });
    if (closing) document.querySelector<HTMLElement>(`[data-finding-id="${CSS.escape(closing)}"] button`)?.focus();
  }, [setUrl, url.finding]);

  // Restore a focused panel from a shared URL once, when its chart data is there.
  const restored = useRef(false);
  useEffect(() => {
    if (restored.current || !seriesData || !loaded) return;
    restored.current = true;
    if (!url.panel) return;
    const el = document.getElementById(`panel-${url.panel}`);
    el?.scrollIntoView({ block: 'start' });
    if (!url.finding) el?.focus({ preventScroll: true });
  }, [seriesData, loaded, url.panel, url.finding]);

  let body: ReactNode;
  if (live && health.isPending) {
    body = <p role="status">Loading cluster {id}…</p>;
  } else if (live && health.isError) {
    body = <ClusterLoadError id={id} error={health.error} onRetry={() => void health.refetch()} />;
  } else {
    const h = healthData!;
    const hidden = h.access?.hiddenViews;
    const updateState = updateStateOfHealth(h);
    const asOf =
      data?.asOf === undefined ? null : (
        <span className="muted" data-testid="as-of">
          {' '}
          {formatAsOf(data.asOf)}
        </span>
      );
    body = (
      <>
        {data?.banner}
        {at !== null ? (
          <TimeTravelBanner at={at} chartsReach={until?.reach ?? null} onLive={() => setUrl({ at: null })} />
        ) : null}
        <ClusterHeader
          cluster={h.cluster}
          state={updateState}
          sources={h.sources}
          activity={h.activity}
          now={now}
          asOf={data?.asOf}
          actions={
            at !== null ? null : live ? (
              <>
                <Link
                  href={`/clusters/${encodeURIComponent(id)}/rollback`}
                  className="btn"
                  data-testid="rollback-guide-link"
                >
                  Rollback guide
                </Link>
                <CreateIncidentButton
                  clusterId={id}
                  defaultTitle={defaultIncidentTitle(findings, h.cluster.name).title}
                  timeWindow={() => {
                    const to = series.data?.now;
                    const from = to === undefined ? undefined : rangeStart(to, url.range);
                    return to === undefined ? {} : { to, ...(Number.isFinite(from) ? { from } : {}) };
                  }}
                />
              </>
            ) : (
              data?.headerActions
            )
          }
        />
        <section aria-labelledby="findings-title" className={styles.section}>
          <h2 id="findings-title">
            Findings <span className="muted">({at === null ? findings.length : thenOpen.length})</span>
            {asOf}
          </h2>
          {at === null ? (
            <>
              <HiddenFindingsNote access={h.access} />
              <FindingsList findings={findings} selectedId={url.finding} onSelect={selectFinding} />
            </>
          ) : then.isError ? (
            <p role="alert">Cannot load the findings of then: {then.error.message}</p>
          ) : then.data ? (
            <TimeTravelFindings entries={thenOpen} hidden={then.data.hiddenEntries} />
          ) : (
            <p role="status">Loading the findings of then…</p>
          )}
        </section>
        {live && series.data ? (
          <section aria-labelledby="finding-history-title" className={styles.section}>
            <h2 id="finding-history-title">Finding history</h2>
            <FindingHistorySection
              id={id}
              now={series.data.now}
              range={url.range}
              at={at}
              history={h.cluster.history}
              onPick={(moment) => setUrl({ at: moment === null ? null : new Date(moment).toISOString() })}
            />
          </section>
        ) : null}
        <section aria-labelledby="detectors-title" className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 id="detectors-title">Detectors</h2>
            <RangePicker value={url.range} onChange={(range) => setUrl({ range })} />
          </div>
          {live && series.isError ? <p role="alert">Cannot load chart series: {series.error.message}</p> : null}
          <DetectorPanels
            series={seriesData}
            findings={findings}
            range={url.range}
            focusedPanel={url.panel}
            onFocusPanel={(panel) => setUrl({ panel })}
          />
        </section>
        {at === null ? (
          <section aria-labelledby="progress-title" className={styles.section}>
            <h2 id="progress-title">Update progress{asOf}</h2>
            {hidden?.updateProgress ? (
              <HiddenViewNote what="Update progress" missing={hidden.updateProgress} />
            ) : (
              <UpdateProgressSection progress={h.updateProgress} state={updateState} />
            )}
          </section>
        ) : null}
        {at === null && hidden?.updateRecommendations ? (
          <section aria-labelledby="before-update-title" className={styles.section} id="before-update">
            <h2 id="before-update-title">Before you update</h2>
            <HiddenViewNote what="Update recommendations" missing={hidden.updateRecommendations} />
          </section>
        ) : null}
        {hidden?.hosted ? (
          <section aria-labelledby="hosted-title" className={styles.section}>
            <h2 id="hosted-title">Hosted control plane</h2>
            <HiddenViewNote what="The hosted control plane" missing={hidden.hosted} />
          </section>
        ) : null}
        {at === null && h.updateRecommendations ? (
          <section aria-labelledby="before-update-title" className={styles.section} id="before-update">
            <h2 id="before-update-title">Before you update</h2>
            <BeforeUpdateSection
              recommendations={h.updateRecommendations}
              state={updateState}
              selected={url.target}
              onSelect={(target) => setUrl({ target })}
            />
          </section>
        ) : null}
        {live && h.cluster.role === 'management' ? <HostedClustersSection managementId={id} /> : null}
        {h.hosted ? (
          <section aria-labelledby="hosted-title" className={styles.section}>
            <h2 id="hosted-title">Hosted control plane</h2>
            <HostedControlPlaneSection hosted={h.hosted} managedBy={h.cluster.managedBy} />
          </section>
        ) : null}
        <section aria-labelledby="history-title" className={styles.section}>
          <h2 id="history-title">
            {h.cluster.role === 'hosted' && h.hosted && !h.cluster.channel
              ? 'HostedCluster version history'
              : 'ClusterVersion history'}
          </h2>
          <HistoryTimeline entries={history} />
        </section>
        {data?.appendix}
      </>
    );
  }

  return (
    <>
      <AppHeader>
        {data ? (
          <>
            {data.source}
            {data.actions}
          </>
        ) : (
          <StreamStatusBadge status={stream} />
        )}
      </AppHeader>
      <main id="main" className={styles.main} data-drawer-open={url.finding ? true : undefined}>
        {body}
      </main>
      {loaded && url.finding ? (
        <EvidenceDrawer
          findingId={url.finding}
          finding={drawerFinding}
          resolved={!current && !!drawerFinding}
          onClose={closeDrawer}
        />
      ) : null}
    </>
  );
}
