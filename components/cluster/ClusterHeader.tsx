import Link from 'next/link';
import type { ReactNode } from 'react';
import type { ClusterInfoDto, SourceStateDto, UpdateProgressDto } from '@/lib/api/dto';
import { CopyButton } from '@/components/common/CopyButton';
import { SourceStatusList } from '@/components/live/SourceStatusList';
import { formatAsOf, formatDuration } from '@/lib/view/format-time';
import styles from './cluster.module.css';

/** Cluster identity, versions, channel, update progress bar, link copy, and the per-source live/stale state. */
export function ClusterHeader({ cluster, progress, sources, now, asOf, actions }: {
  cluster: ClusterInfoDto;
  progress: UpdateProgressDto | null;
  sources: readonly SourceStateDto[];
  now: number;
  /** When a frozen view was captured (epoch ms): its update state and sources say "as of" then. Absent while live. */
  asOf?: number;
  /** Page-specific actions beside the title (live view: rollback guide, create incident). */
  actions?: ReactNode;
}) {
  const cp = progress?.controlPlane;
  const percent = cp ? Math.round(cp.completionPercent) : null;
  return (
    <section className={styles.header} aria-labelledby="cluster-title">
      <div className={styles.headerTop}>
        <h1 id="cluster-title">{cluster.name}</h1>
        <CopyButton text={() => window.location.href} label="Copy link to this view" />
        {actions}
      </div>
      <dl className={styles.facts}>
        <div><dt>Current version</dt><dd data-testid="current-version">{cluster.version ?? 'unknown'}</dd></div>
        <div><dt>Desired version</dt><dd data-testid="desired-version">{cluster.desiredVersion ?? 'unknown'}</dd></div>
        <div><dt>Channel</dt><dd>{cluster.channel ?? 'none'}</dd></div>
        {cluster.role && cluster.role !== 'standalone' ? (
          <div>
            <dt>Role</dt>
            <dd data-testid="cluster-role">{cluster.role === 'management' ? 'HyperShift management cluster' : 'Hosted cluster'}
              {cluster.managedBy ? <> on <Link href={`/clusters/${encodeURIComponent(cluster.managedBy)}`}>{cluster.managedBy}</Link></> : null}</dd>
          </div>
        ) : null}
        <div>
          <dt>Update</dt>
          <dd>
            {progress?.updating && cp ? (
              <span className={styles.progress}>
                <progress max={100} value={percent ?? 0} aria-label={`Update to ${cp.targetVersion ?? 'target'} progress`} />
                <span data-testid="update-percent">{percent} %</span>
                <span className="muted">
                  {cp.assessment}
                  {cp.durationSeconds !== null ? ` · running ${formatDuration(cp.durationSeconds)}` : ''}
                  {cp.estimatedRemainingSeconds ? ` · about ${formatDuration(cp.estimatedRemainingSeconds)} left` : ''}
                </span>
              </span>
            ) : (
              <span>{cp ? `${cp.assessment}` : 'Not updating'}</span>
            )}
            {asOf !== undefined
              ? <span className="muted" data-testid="update-as-of"> · {formatAsOf(asOf)}</span> : null}
          </dd>
        </div>
      </dl>
      <SourceStatusList sources={sources} now={now} asOf={asOf} />
    </section>
  );
}
