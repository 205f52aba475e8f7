'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/queries/api-error';
import { rollbackQueries } from '@/lib/queries/rollback-queries';
import type { IncidentAuthorDto } from '@/lib/api/incident-dto';
import { formatAsOf, formatDateTime } from '@/lib/view/format-time';
import { AppHeader } from '@/components/shell/AppHeader';
import { CopyButton } from '@/components/common/CopyButton';
import { ClusterView } from '@/components/cluster/ClusterView';
import styles from '@/components/cluster/cluster.module.css';
import { IncidentAppendix } from './IncidentAppendix';
import incidentStyles from './incidents.module.css';

function authorName(author: IncidentAuthorDto): string {
  return author.kind === 'user' ? author.name : 'local operator';
}

/**
 * `/incidents/<id>`: the frozen view rendered read-only by the cluster page itself, under its title, author and note;
 * what was live says "as of" the capture, ages and charts are relative to it, and the charts open on the whole frozen
 * window (from the findings' onset). Panel, range and finding live in the URL as on the cluster page.
 */
export function IncidentView({ id }: { id: string }) {
  const incident = useQuery(rollbackQueries.incident(id));

  if (incident.isSuccess) {
    const d = incident.data;
    return (
      <ClusterView
        id={d.cluster.id}
        data={{
          health: d.health,
          series: d.series,
          now: d.capturedAt,
          asOf: d.capturedAt,
          defaultRange: 'all',
          source: (
            <span className="muted" data-testid="incident-frozen">
              Frozen incident, {formatAsOf(d.capturedAt)}
            </span>
          ),
          banner: (
            <div className={styles.note} data-testid="incident-banner">
              <p className={incidentStyles.title} data-testid="incident-title">
                {d.title}
              </p>
              {d.note ? (
                <p className={incidentStyles.note} data-testid="incident-note">
                  {d.note}
                </p>
              ) : null}
              <p>
                Frozen {formatAsOf(d.capturedAt)} (cluster time) from {formatDateTime(d.window.from)}; created{' '}
                {formatDateTime(d.createdAt)} by <span data-testid="incident-author">{authorName(d.author)}</span>
                {' · cluster '}
                {d.cluster.name}
                {d.cluster.clusterID ? ` (${d.cluster.clusterID})` : ''} · read-only
              </p>
            </div>
          ),
          headerActions: (
            <>
              <a
                className="btn"
                href={`/api/incidents/${encodeURIComponent(d.id)}`}
                download={`incident-${d.id}.json`}
                data-testid="incident-export"
              >
                Export JSON
              </a>
              <CopyButton text={() => window.location.href} label="Copy incident link" />
            </>
          ),
          appendix: <IncidentAppendix incident={d} />,
        }}
      />
    );
  }

  const notFound = incident.isError && incident.error instanceof ApiError && incident.error.status === 404;
  return (
    <>
      <AppHeader>
        <span className="muted" data-testid="incident-frozen">
          Frozen incident
        </span>
      </AppHeader>
      <main id="main" className={styles.main}>
        {incident.isPending ? (
          <p role="status">Loading incident…</p>
        ) : (
          <div role="alert" data-testid="incident-error">
            <h1>{notFound ? 'Incident not found' : 'Cannot load incident'}</h1>
            <p>{notFound ? 'No incident has this id. Check the link.' : incident.error?.message}</p>
            <p>
              <Link href="/">Back to the fleet</Link>
            </p>
          </div>
        )}
      </main>
    </>
  );
}
