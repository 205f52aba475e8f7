'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { historyQueries } from '@/lib/queries/history-queries';
import { formatDuration } from '@/lib/view/format-time';
import styles from './fleet.module.css';

const seconds = (value: number | null) => (value === null ? '—' : formatDuration(value));

/**
 * Update durations across the fleet: per from→to version, how many clusters updated and the p50/p95 of the completed
 * updates, and the updates running longer than that p95 right now. A CSV of every update is one link away.
 */
export function UpdateDurationsPanel() {
  const updates = useQuery(historyQueries.fleetUpdates());
  if (updates.isPending) return null;
  if (updates.isError)
    return (
      <section className={styles.durations} aria-labelledby="durations-title">
        <h2 id="durations-title">Update durations</h2>
        <p role="alert">Cannot load update durations: {updates.error.message}</p>
      </section>
    );
  const { pairs, updates: all } = updates.data;
  const slow = all.filter((update) => update.ongoing && update.slowerThanP95);
  return (
    <section className={styles.durations} aria-labelledby="durations-title" data-testid="update-durations">
      <h2 id="durations-title">Update durations</h2>
      {pairs.length === 0 ? (
        <p className="muted">No update is recorded in the ClusterVersion history of the clusters you may see.</p>
      ) : (
        <table>
          <caption className="muted">
            From ClusterVersion history; p50/p95 of completed updates.{' '}
            <a href="/api/fleet/updates?format=csv" download>
              Every update as CSV
            </a>
          </caption>
          <thead>
            <tr>
              <th scope="col">From → to</th>
              <th scope="col">Number of clusters</th>
              <th scope="col">Completed</th>
              <th scope="col">Ongoing</th>
              <th scope="col">p50</th>
              <th scope="col">p95</th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((pair) => (
              <tr key={`${pair.from ?? ''}→${pair.to}`}>
                <th scope="row">
                  {pair.from ?? '?'} → {pair.to}
                </th>
                <td>{pair.clusters}</td>
                <td>{pair.completed}</td>
                <td>{pair.ongoing}</td>
                <td>{seconds(pair.p50Seconds)}</td>
                <td>{seconds(pair.p95Seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Slower than the fleet’s p95 right now</h3>
      {slow.length === 0 ? (
        <p className="muted" data-testid="slow-updates-none">
          {updates.data.fleetP95Seconds === null
            ? 'No completed update to compare with yet.'
            : 'No ongoing update is slower than the p95 of its versions.'}
        </p>
      ) : (
        <ul data-testid="slow-updates">
          {slow.map((update) => (
            <li key={`${update.clusterId} ${update.to}`}>
              <Link href={`/clusters/${encodeURIComponent(update.clusterId)}`}>{update.clusterName}</Link>:{' '}
              {update.from ?? '?'} → {update.to}, running {formatDuration(update.durationSeconds)}
              {update.findings.length ? `, ${update.findings.length} finding(s) during it` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
