import Link from 'next/link';
import type { ReactNode } from 'react';
import type { ActivityDto, ClusterInfoDto, SourceStateDto, UpdateStateDto } from '@/lib/api/dto';
import { CopyButton } from '@/components/common/CopyButton';
import { SourceStatusList } from '@/components/live/SourceStatusList';
import { formatAsOf, formatDateTime, formatDuration } from '@/lib/view/format-time';
import styles from './cluster.module.css';

/** The part of an update under way as one bar: the control plane's operators, or the workers' nodes. */
function partProgress(state: UpdateStateDto): { percent: number; label: string } | null {
  // A frozen status measures against a stale target: no bar, only what is observed.
  if (state.phase === 'idle' || state.phase === 'unknown' || state.frozen) return null;
  if (state.controlPlane && !state.controlPlane.done && state.controlPlane.percent !== null) {
    return { percent: Math.round(state.controlPlane.percent), label: 'control plane' };
  }
  const updated = state.pools.reduce((n, pool) => n + pool.updated, 0);
  const total = state.pools.reduce((n, pool) => n + pool.total, 0);
  return total > 0 ? { percent: Math.round((updated / total) * 100), label: 'worker nodes' } : null;
}

/** "control plane 100 % · worker 1/3 (2 unknown)"; while status is frozen, the versions observed instead. */
function partsLine(state: UpdateStateDto): string {
  if (state.frozen) {
    const operators = (state.operatorVersions ?? []).map((v) => `${v.version} (${v.operators})`).join(', ');
    const nodes = (state.nodeVersions ?? []).map((v) => `${v.version} (${v.nodes})`).join(', ');
    const observed = [operators ? `ClusterOperators at ${operators}` : '', nodes ? `nodes at ${nodes}` : ''].filter(
      Boolean,
    );
    return observed.length ? `observed: ${observed.join(' · ')}` : '';
  }
  const cp = state.controlPlane?.percent;
  const parts = cp !== null && cp !== undefined ? [`control plane ${Math.round(cp)} %`] : [];
  for (const pool of state.pools.filter((p) => p.total > 0)) {
    parts.push(`${pool.name} ${pool.updated}/${pool.total}${pool.unknown ? ` (${pool.unknown} unknown)` : ''}`);
  }
  return parts.join(' · ');
}

/** The update state in a line: the phase, its parts, and an estimate only when there is an honest one. */
function UpdateStateLine({ state }: { state: UpdateStateDto }) {
  const part = partProgress(state);
  const estimate =
    state.estimate.remainingSeconds !== null
      ? `about ${formatDuration(state.estimate.remainingSeconds)} left`
      : state.estimate.note
        ? `estimate ${state.estimate.note}`
        : '';
  return (
    <span className={styles.progress} data-testid="update-state" data-phase={state.phase}>
      <strong data-testid="update-state-label">{state.label}</strong>
      {part ? (
        <>
          <progress max={100} value={part.percent} aria-label={`${part.label} progress`} />
          <span data-testid="update-percent">
            {part.label} {part.percent} %
          </span>
        </>
      ) : null}
      {state.phase !== 'unknown' && state.phase !== 'idle' ? (
        <span className="muted">
          {partsLine(state)}
          {estimate ? ` · ${estimate}` : ''}
        </span>
      ) : null}
    </span>
  );
}

/** Says that ClusterVersion status is frozen and that what it reports is stale; names what to trust instead. */
export function FrozenStatusBanner({ state }: { state: UpdateStateDto }) {
  if (!state.frozen) return null;
  const versions = state.operatorVersions ?? [];
  return (
    <div role="alert" className={styles.note} data-testid="status-frozen">
      <strong>
        ClusterVersion status frozen{state.frozen.since ? ` since ${formatDateTime(state.frozen.since)}` : ''} — values
        below are stale.
      </strong>{' '}
      {state.frozen.reason}.
      {state.rollingBack && state.targetVersion ? ` The cluster was asked to roll back to ${state.targetVersion}.` : ''}
      {versions.length ? (
        <>
          {' '}
          Observed instead: ClusterOperators at {versions.map((v) => `${v.version} (${v.operators})`).join(', ')}; nodes
          in the update progress below.
        </>
      ) : null}
    </div>
  );
}

/** Cluster identity, versions, channel, the update state, link copy, and the per-source live/stale state. */
export function ClusterHeader({
  cluster,
  state,
  sources,
  now,
  asOf,
  actions,
  activity,
}: {
  cluster: ClusterInfoDto;
  state: UpdateStateDto;
  sources: readonly SourceStateDto[];
  now: number;
  /** When a frozen view was captured (epoch ms): its update state and sources say "as of" then. Absent while live. */
  asOf?: number;
  /** Page-specific actions beside the title (live view: rollback guide, create incident). */
  actions?: ReactNode;
  /** Which tier of sources the cluster reads. */
  activity?: ActivityDto;
}) {
  return (
    <section className={styles.header} aria-labelledby="cluster-title">
      <div className={styles.headerTop}>
        <h1 id="cluster-title">{cluster.name}</h1>
        <CopyButton text={() => window.location.href} label="Copy link to this view" />
        {actions}
      </div>
      <FrozenStatusBanner state={state} />
      <dl className={styles.facts}>
        <div>
          <dt>Current version</dt>
          <dd data-testid="current-version">{cluster.version ?? 'unknown'}</dd>
        </div>
        <div>
          <dt>Desired version</dt>
          <dd data-testid="desired-version">
            {state.frozen && state.targetVersion
              ? `${state.targetVersion} (requested)`
              : (cluster.desiredVersion ?? 'unknown')}
          </dd>
        </div>
        <div>
          <dt>Channel</dt>
          <dd>{cluster.channel ?? 'none'}</dd>
        </div>
        {cluster.role && cluster.role !== 'standalone' ? (
          <div>
            <dt>Role</dt>
            <dd data-testid="cluster-role">
              {cluster.role === 'management' ? 'HyperShift management cluster' : 'Hosted cluster'}
              {cluster.managedBy ? (
                <>
                  {' '}
                  on <Link href={`/clusters/${encodeURIComponent(cluster.managedBy)}`}>{cluster.managedBy}</Link>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Update</dt>
          <dd>
            <UpdateStateLine state={state} />
            {asOf !== undefined ? (
              <span className="muted" data-testid="update-as-of">
                {' '}
                · {formatAsOf(asOf)}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
      <SourceStatusList sources={sources} now={now} asOf={asOf} activity={activity} />
    </section>
  );
}
