'use client';
import type { UpdateStateDto } from '@/lib/api/dto';
import type {
  PrecheckDto,
  TargetPredictionDto,
  UpdateRecommendationsDto,
  UpdateTargetDto,
} from '@/lib/api/recommend-dto';
import { defaultTarget, predictionsFor } from '@/lib/recommend/update-command';
import { UpdateTargetDetails, VerdictBadge, verdictOf } from './UpdateTargetDetails';
import styles from './before-update.module.css';

const PRECHECK_LOOK: Record<string, { icon: string; tone: string }> = {
  True: { icon: '✓', tone: 'ok' },
  False: { icon: '▲', tone: 'warning' },
  Unknown: { icon: '?', tone: 'info' },
};

function PrecheckRow({ precheck }: { precheck: PrecheckDto }) {
  const look = PRECHECK_LOOK[precheck.status] ?? PRECHECK_LOOK.Unknown;
  return (
    <li className={styles.precheck} data-testid="precheck" data-status={precheck.status}>
      <span className={`badge badge-${look.tone}`}>
        <span aria-hidden="true">{look.icon}</span> {precheck.status}
      </span>
      <div>
        <code>{precheck.name}</code> <span className="muted">{precheck.reason}</span>
        {precheck.status !== 'True' ? <p className={styles.message}>{precheck.message}</p> : null}
      </div>
    </li>
  );
}

function TargetRow({
  target,
  predictions,
  selected,
  onSelect,
}: {
  target: UpdateTargetDto;
  predictions: TargetPredictionDto[];
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <tr data-testid="update-target" data-version={target.version} data-selected={selected || undefined}>
      <th scope="row">
        <button type="button" className="btn btn-small" onClick={onSelect} aria-pressed={selected}>
          {target.version}
        </button>
      </th>
      <td>
        {target.recommended ? (
          'Recommended'
        ) : (
          <>
            {`Recommended=${target.recommendedStatus}`} <span className="muted">{target.reason}</span>
          </>
        )}
      </td>
      <td>{target.risks.map((r) => r.name).join(', ') || <span className="muted">none</span>}</td>
      <td>
        <VerdictBadge verdict={verdictOf(predictions)} />
        {!target.recommended ? (
          <span className="muted" data-testid="not-recommended">
            {' '}
            but oc: not recommended
          </span>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * "Before you update": what `oc adm upgrade recommend` says (channel, targets with their risks, alert prechecks)
 * and, per target, our own predictions, with the `oc adm upgrade --to` command only when it is safe (see
 * {@link UpdateTargetDetails}). The newest recommended target is preselected; a not-recommended one only by choice.
 */
export function BeforeUpdateSection({
  recommendations,
  state = null,
  selected,
  onSelect,
}: {
  recommendations: UpdateRecommendationsDto | null;
  /** The cluster's update state (`lib/cluster/update-state`): no command unless it is `idle`. */
  state?: UpdateStateDto | null;
  selected: string | null;
  onSelect: (version: string) => void;
}) {
  if (!recommendations)
    return (
      <p className="muted" data-testid="before-update-empty">
        No ClusterVersion, so no update targets.
      </p>
    );
  const { updates, prechecks } = recommendations;
  const target = updates.find((u) => u.version === selected) ?? defaultTarget(updates);
  const concerns = prechecks.filter((p) => p.status !== 'True');
  const progressing = recommendations.clusterConditions.find((c) => c.type === 'Progressing' && c.status === 'True');
  const busy = state && state.phase !== 'idle' ? state : null;
  return (
    <div data-testid="before-update">
      <dl className={styles.facts}>
        <div>
          <dt>Channel</dt>
          <dd data-testid="update-channel">{recommendations.channel ?? 'none'}</dd>
        </div>
        <div>
          <dt>Available channels</dt>
          <dd>{recommendations.availableChannels.join(', ') || '—'}</dd>
        </div>
        <div>
          <dt>Update service</dt>
          <dd>{recommendations.upstream ?? 'default (unset)'}</dd>
        </div>
      </dl>
      {busy ? (
        <p className={styles.note} role="note" data-testid="update-busy">
          {busy.phase === 'unknown' ? busy.label : `An update is in progress: ${busy.label}`}. No update command is
          offered until it is done.
        </p>
      ) : progressing ? (
        <p className={styles.note} role="note">
          An update is in progress: {progressing.message}
        </p>
      ) : null}
      <h3>
        Prechecks{' '}
        <span className="muted">
          ({concerns.length} of {prechecks.length} with concerns)
        </span>
      </h3>
      {recommendations.precheckError ? (
        <p role="alert">Some prechecks could not run: {recommendations.precheckError}</p>
      ) : null}
      <ul className={styles.prechecks}>
        {[...concerns, ...prechecks.filter((p) => p.status === 'True')].map((p) => (
          <PrecheckRow key={p.name} precheck={p} />
        ))}
      </ul>
      <h3>
        Targets <span className="muted">({updates.length}, newest first)</span>
      </h3>
      {updates.length === 0 ? (
        <p className="muted">No updates available in this channel.</p>
      ) : (
        <div className={styles.layout}>
          <table className={styles.targets}>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">oc says</th>
                <th scope="col">Risks</th>
                <th scope="col">We predict</th>
              </tr>
            </thead>
            <tbody>
              {updates.map((u) => (
                <TargetRow
                  key={u.version}
                  target={u}
                  predictions={predictionsFor(recommendations, u)}
                  selected={u === target}
                  onSelect={() => onSelect(u.version)}
                />
              ))}
            </tbody>
          </table>
          {target ? (
            <UpdateTargetDetails
              key={target.version}
              target={target}
              predictions={predictionsFor(recommendations, target)}
              state={state}
            />
          ) : (
            <p className="muted" data-testid="no-recommended-target">
              No target is recommended for this cluster; choose one to see its risks.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
