'use client';
import Link from 'next/link';
import { useQuery } from '@tanstack/react-query';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import styles from './cluster.module.css';

/** On a management cluster's page: a link to each hosted cluster it runs, from the fleet list (`managedBy`). */
export function HostedClustersSection({ managementId }: { managementId: string }) {
  const list = useQuery(clusterQueries.list());
  const hosted = (list.data?.clusters ?? []).filter((c) => c.managedBy === managementId);
  return (
    <section aria-labelledby="hosted-clusters-title" className={styles.section} data-testid="hosted-clusters">
      <h2 id="hosted-clusters-title">
        Hosted clusters <span className="muted">({hosted.length})</span>
      </h2>
      {list.isPending ? <p role="status">Loading hosted clusters…</p> : null}
      {list.isError ? <p role="alert">Cannot load the fleet: {list.error.message}</p> : null}
      {list.isSuccess && hosted.length === 0 ? <p className="muted">No hosted clusters visible to you.</p> : null}
      {hosted.length > 0 ? (
        <ul>
          {hosted.map((c) => (
            <li key={c.id}>
              <Link href={`/clusters/${encodeURIComponent(c.id)}`} data-testid="hosted-cluster-link">
                {c.name}
              </Link>
              {c.worstFinding ? (
                <>
                  {' '}
                  <SeverityBadge severity={c.worstFinding.severity} />
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
