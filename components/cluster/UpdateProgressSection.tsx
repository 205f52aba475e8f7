import type { UpdateProgressDto, UpdateStateDto } from '@/lib/api/dto';
import { formatDateTime, formatDuration } from '@/lib/view/format-time';
import styles from './cluster.module.css';

type NodeRow = NonNullable<UpdateProgressDto['controlPlane']['nodes']>[number] & { pool: string };

/** A node whose version nobody can tell (oc: `?`, Pending) is not known to be outdated. */
function nodeAssessment(node: NodeRow): string {
  return !node.version && node.assessment === 'Outdated' ? 'Unknown (version not known)' : node.assessment;
}

/**
 * Update progress as `oc adm upgrade status` reports it (control plane, operators, pools, nodes, insights), read
 * through the update state: stale values say so, unknown ones say why, the estimate is the state's.
 */
export function UpdateProgressSection({
  progress,
  state,
}: {
  progress: UpdateProgressDto | null;
  state: UpdateStateDto;
}) {
  if (!progress || state.phase === 'unknown') {
    return (
      <p className="muted" data-testid="update-progress" data-phase={state.phase}>
        {state.unknownReason
          ? `Update state unknown: ${state.unknownReason}.`
          : 'No update progress reported for this cluster.'}
      </p>
    );
  }
  const cp = progress.controlPlane;
  const stale = state.frozen ? ' (stale: ClusterVersion status frozen)' : '';
  const counts = new Map(state.pools.map((pool) => [pool.name, pool]));
  const estimate =
    state.estimate.remainingSeconds !== null
      ? ` · est. ${formatDuration(state.estimate.remainingSeconds)} left`
      : state.estimate.note
        ? ` · estimate ${state.estimate.note}`
        : '';
  const nodes: NodeRow[] = [
    ...(cp.nodes ?? []).map((n) => ({ ...n, pool: 'control plane' })),
    ...progress.workerPools.flatMap((p) => (p.nodes ?? []).map((n) => ({ ...n, pool: p.name }))),
  ];
  return (
    <div className={styles.progressGrid} data-testid="update-progress">
      <section aria-labelledby="cp-title">
        <h3 id="cp-title">Control plane</h3>
        <dl className={styles.facts}>
          <div>
            <dt>Assessment</dt>
            <dd data-testid="cp-assessment">
              {cp.assessment}
              {stale}
            </dd>
          </div>
          <div>
            <dt>Target</dt>
            <dd>
              {cp.targetVersion ?? '—'}
              {cp.multiArchMigration
                ? ' to multi-architecture (same version, new release image)'
                : cp.previousVersion
                  ? ` (from ${cp.previousVersion})`
                  : ''}
            </dd>
          </div>
          <div>
            <dt>Completion</dt>
            <dd>
              {Math.round(cp.completionPercent)} %{stale}
            </dd>
          </div>
          <div>
            <dt>Duration</dt>
            <dd data-testid="cp-duration">
              {cp.durationSeconds !== null ? formatDuration(cp.durationSeconds) : '—'}
              {estimate}
            </dd>
          </div>
          <div>
            <dt>Operators</dt>
            <dd data-testid="operator-counts">
              {cp.operators.updated} of {cp.operators.total} updated · {cp.operators.updating} updating ·{' '}
              {cp.operators.waiting} waiting
            </dd>
          </div>
          <div>
            <dt>Operator health</dt>
            <dd>
              {cp.health.healthy} healthy · {cp.health.unavailable} unavailable · {cp.health.degraded} degraded
            </dd>
          </div>
        </dl>
        {cp.updatingOperators && cp.updatingOperators.length > 0 ? (
          <p>Updating: {cp.updatingOperators.join(', ')}</p>
        ) : null}
      </section>
      <section aria-labelledby="pools-title">
        <h3 id="pools-title">Worker pools</h3>
        {progress.workerPools.length === 0 ? (
          <p className="muted">No worker pools reported.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Pool</th>
                <th scope="col">Assessment</th>
                <th scope="col">Completion</th>
                <th scope="col">Nodes updated</th>
              </tr>
            </thead>
            <tbody>
              {progress.workerPools.map((p) => {
                const known = counts.get(p.name);
                const allUnknown = !!known && known.total > 0 && known.unknown === known.total;
                return (
                  <tr key={p.name} data-testid="pool-row" data-pool={p.name}>
                    <th scope="row">{p.name}</th>
                    <td>{allUnknown ? 'Unknown (node versions not known)' : p.assessment}</td>
                    <td>
                      <progress max={100} value={p.completionPercent} aria-label={`Pool ${p.name} completion`} />{' '}
                      {allUnknown ? '?' : `${Math.round(p.completionPercent)} %`}
                    </td>
                    <td>
                      {known
                        ? `${known.updated} / ${known.total}${known.unknown ? ` (${known.unknown} unknown)` : ''}`
                        : `${p.updatedNodes} / ${p.totalNodes}`}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="nodes-title" className={styles.wide}>
        <h3 id="nodes-title">Nodes</h3>
        {nodes.length === 0 ? (
          <p className="muted">No node details reported.</p>
        ) : (
          <table className="table" data-testid="nodes-table">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Pool</th>
                <th scope="col">Assessment</th>
                <th scope="col">Phase</th>
                <th scope="col">Version</th>
                <th scope="col">Estimate</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((n) => (
                <tr key={`${n.pool}/${n.name}`}>
                  <th scope="row">{n.name}</th>
                  <td>{n.pool}</td>
                  <td>{nodeAssessment(n)}</td>
                  <td>{n.phase}</td>
                  <td>{n.version || 'unknown'}</td>
                  <td>{n.estimate ?? '—'}</td>
                  <td>{n.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section aria-labelledby="insights-title" className={styles.wide}>
        <h3 id="insights-title">Update health insights</h3>
        {progress.insights.length === 0 ? (
          <p className="muted">No insights: the update looks healthy.</p>
        ) : (
          <ul className={styles.insights} data-testid="insights">
            {progress.insights.map((ins, i) => (
              <li key={`${ins.level}-${i}`}>
                <strong>{ins.level}</strong>{' '}
                <span className="muted">
                  {ins.impact}
                  {ins.since ? ` · since ${formatDateTime(ins.since)}` : ''}
                </span>
                <p>{ins.message}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
