'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { FindingDto } from '@/lib/api/dto';
import { detectorSpec } from '@/lib/charts/detectors';
import { toHistoryTimeline } from '@/lib/charts/to-history-timeline';
import { ApiError } from '@/lib/queries/api-error';
import { rollbackQueries } from '@/lib/queries/rollback-queries';
import { sortFindings } from '@/lib/view/severity';
import { formatDateTime } from '@/lib/view/format-time';
import { AppHeader } from '@/components/shell/AppHeader';
import { CopyButton } from '@/components/common/CopyButton';
import { ClusterHeader } from '@/components/cluster/ClusterHeader';
import { DetectorPanels } from '@/components/cluster/DetectorPanels';
import { EvidenceDrawer } from '@/components/cluster/EvidenceDrawer';
import { FindingsList } from '@/components/cluster/FindingsList';
import { HistoryTimeline } from '@/components/cluster/HistoryTimeline';
import { RangePicker } from '@/components/cluster/RangePicker';
import { UpdateProgressSection } from '@/components/cluster/UpdateProgressSection';
import { useClusterUrlState } from '@/components/cluster/use-cluster-url-state';
import styles from '@/components/cluster/cluster.module.css';
import { IncidentAppendix } from './IncidentAppendix';

/**
 * `/incidents/<id>`: the frozen view rendered read-only with the cluster page's own components; ages and charts are
 * relative to the moment it was frozen, not to now. Panel, range and finding live in the URL as on the cluster page.
 */
export function IncidentView({ id }: { id: string }) {
  const incident = useQuery(rollbackQueries.incident(id));
  const [url, setUrl] = useClusterUrlState();
  const data = incident.data;
  const findings = useMemo(() => sortFindings(data?.health.findings ?? []), [data]);
  const history = useMemo(() => toHistoryTimeline(data?.health.cluster.history ?? []), [data]);
  const finding = url.finding ? findings.find((f) => f.id === url.finding) : undefined;
  const selectFinding = useCallback((f: FindingDto) => {
    setUrl({ finding: f.id, ...(detectorSpec(f.detector) ? { panel: f.detector } : {}) });
  }, [setUrl]);
  const closeDrawer = useCallback(() => setUrl({ finding: null }), [setUrl]);

  let body;
  if (incident.isPending) {
    body = <p role="status">Loading incident…</p>;
  } else if (incident.isError) {
    const notFound = incident.error instanceof ApiError && incident.error.status === 404;
    body = (
      <div role="alert" data-testid="incident-error">
        <h1>{notFound ? 'Incident not found' : 'Cannot load incident'}</h1>
        <p>{notFound ? 'No incident has this id. Check the link.' : incident.error.message}</p>
        <p><Link href="/">Back to the fleet</Link></p>
      </div>
    );
  } else {
    const d = incident.data;
    body = (
      <>
        <p className={styles.note} data-testid="incident-banner">
          Incident frozen at {formatDateTime(new Date(d.capturedAt).toISOString())} (cluster time), created {formatDateTime(d.createdAt)}
          {d.createdBy ? ` by ${d.createdBy}` : ''} · cluster {d.cluster.name}{d.cluster.clusterID ? ` (${d.cluster.clusterID})` : ''} · read-only
        </p>
        <ClusterHeader cluster={d.health.cluster} progress={d.health.updateProgress} sources={d.health.sources} now={d.capturedAt} actions={(
          <>
            <a className="btn" href={`/api/incidents/${encodeURIComponent(d.id)}`} download={`incident-${d.id}.json`} data-testid="incident-export">Export JSON</a>
            <CopyButton text={() => window.location.href} label="Copy incident link" />
          </>
        )} />
        <section aria-labelledby="findings-title" className={styles.section}>
          <h2 id="findings-title">Findings <span className="muted">({findings.length})</span></h2>
          <FindingsList findings={findings} selectedId={url.finding} onSelect={selectFinding} />
        </section>
        <section aria-labelledby="detectors-title" className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 id="detectors-title">Detectors</h2>
            <RangePicker value={url.range} onChange={(range) => setUrl({ range })} />
          </div>
          <DetectorPanels series={d.series} findings={findings} range={url.range} focusedPanel={url.panel} onFocusPanel={(panel) => setUrl({ panel })} />
        </section>
        <section aria-labelledby="progress-title" className={styles.section}>
          <h2 id="progress-title">Update progress</h2>
          <UpdateProgressSection progress={d.health.updateProgress} />
        </section>
        <section aria-labelledby="history-title" className={styles.section}>
          <h2 id="history-title">ClusterVersion history</h2>
          <HistoryTimeline entries={history} />
        </section>
        <IncidentAppendix incident={d} />
      </>
    );
  }

  return (
    <>
      <AppHeader><span className="muted" data-testid="incident-frozen">Frozen incident</span></AppHeader>
      <main id="main" className={styles.main} data-drawer-open={url.finding ? true : undefined}>{body}</main>
      {data && url.finding ? <EvidenceDrawer findingId={url.finding} finding={finding} resolved={false} onClose={closeDrawer} /> : null}
    </>
  );
}
