'use client';
import type { FleetMembershipDto } from '@/lib/api/dto';
import { formatDateTime } from '@/lib/view/format-time';
import type { SyncProgress } from '@/lib/view/sync-progress';
import styles from './fleet.module.css';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * How many clusters the fleet's sources found, how many are connected and which wait (and why), plus any source
 * that cannot be read now: no cluster is silently missing from the page. While the first sync runs, how far it is.
 */
export function FleetMembership({ membership, progress }: { membership: FleetMembershipDto; progress?: SyncProgress }) {
  const waiting = membership.waiting.length + (membership.waitingHidden ?? 0);
  const failing = membership.sources.filter((source) => source.error);
  // A source that fails says so below; one still listing is not an empty fleet.
  const listing = membership.sources.filter((source) => source.listing && !source.error);
  return (
    <section className={styles.membership} aria-label="Fleet membership" data-testid="fleet-membership">
      <p>
        <span data-testid="membership-discovered">{membership.discovered} discovered</span>
        {' · '}
        <span data-testid="membership-connected">{membership.connected} connected</span>
        {' · '}
        <span data-testid="membership-waiting">{waiting} waiting</span>
      </p>
      {listing.map((source) => (
        <p role="status" key={`${source.kind}:${source.name}`} data-testid="membership-source-listing">
          Listing clusters from {source.kind} {source.name}…
        </p>
      ))}
      {progress && !progress.done ? (
        <p role="status">
          <span data-testid="membership-sync-progress">
            {`${count(progress.synced)} of ${count(progress.total)} clusters synced`}
          </span>{' '}
          <progress max={progress.total} value={progress.synced} aria-hidden="true" />
        </p>
      ) : null}
      {failing.length ? (
        <ul role="alert" className={styles.stale}>
          {failing.map((source) => (
            <li key={`${source.kind}:${source.name}`} data-testid="membership-source-error">
              {source.kind} {source.name}: {source.error!.message} (since {formatDateTime(source.error!.since)})
            </li>
          ))}
        </ul>
      ) : null}
      {membership.waiting.length ? (
        <details>
          <summary>Waiting clusters</summary>
          <ul>
            {membership.waiting.map((cluster) => (
              <li key={cluster.id} data-testid="membership-waiting-cluster" data-cluster-id={cluster.id}>
                <strong>{cluster.name}</strong> ({cluster.discoveredBy.kind} {cluster.discoveredBy.name}):{' '}
                {cluster.reason} — since {formatDateTime(cluster.since)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {membership.waitingHidden ? (
        <p className="muted">
          {membership.waitingHidden} cluster(s) found but not reachable are not listed: who may see them cannot be
          checked until they connect.
        </p>
      ) : null}
    </section>
  );
}
