'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/queries/api-error';
import { rollbackQueries } from '@/lib/queries/rollback-queries';
import { formatDateTime } from '@/lib/view/format-time';
import { AppHeader } from '@/components/shell/AppHeader';
import { CopyButton } from '@/components/common/CopyButton';
import { ClusterView } from '@/components/cluster/ClusterView';
import styles from '@/components/cluster/cluster.module.css';
import { IncidentAppendix } from './IncidentAppendix';

/**
 * `/incidents/<id>`: the frozen view rendered read-only by the cluster page itself; ages and charts are relative to
 * the moment it was frozen, not to now. Panel, range and finding live in the URL as on the cluster page.
 */
export function IncidentView({ id }: { id: string }) {
  const incident = useQuery(rollbackQueries.incident(id));

  if (incident.isSuccess) {
    const d = incident.data;
    return (
      <ClusterView id={d.cluster.id} data={{
        health: d.health,
        series: d.series,
        now: d.capturedAt,
        source: <span className="muted" data-testid="incident-frozen">Frozen incident</span>,
        banner: (
          <p className={styles.note} data-testid="incident-banner">
            Incident frozen at {formatDateTime(new Date(d.capturedAt).toISOString())} (cluster time), created {formatDateTime(d.createdAt)}
            {d.createdBy ? ` by ${d.createdBy}` : ''} · cluster {d.cluster.name}{d.cluster.clusterID ? ` (${d.cluster.clusterID})` : ''} · read-only
          </p>
        ),
        headerActions: (
          <>
            <a className="btn" href={`/api/incidents/${encodeURIComponent(d.id)}`} download={`incident-${d.id}.json`} data-testid="incident-export">Export JSON</a>
            <CopyButton text={() => window.location.href} label="Copy incident link" />
          </>
        ),
        appendix: <IncidentAppendix incident={d} />,
      }} />
    );
  }

  const notFound = incident.isError && incident.error instanceof ApiError && incident.error.status === 404;
  return (
    <>
      <AppHeader><span className="muted" data-testid="incident-frozen">Frozen incident</span></AppHeader>
      <main id="main" className={styles.main}>
        {incident.isPending ? <p role="status">Loading incident…</p> : (
          <div role="alert" data-testid="incident-error">
            <h1>{notFound ? 'Incident not found' : 'Cannot load incident'}</h1>
            <p>{notFound ? 'No incident has this id. Check the link.' : incident.error?.message}</p>
            <p><Link href="/">Back to the fleet</Link></p>
          </div>
        )}
      </main>
    </>
  );
}
