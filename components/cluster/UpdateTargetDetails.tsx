'use client';
import { useState } from 'react';
import type { UpdateStateDto } from '@/lib/api/dto';
import type { TargetPredictionDto, UpdateTargetDto } from '@/lib/api/recommend-dto';
import { commandWithheld, riskToAcknowledge, updateCommand } from '@/lib/recommend/update-command';
import { safeHttpUrl } from '@/lib/view/safe-url';
import { CopyButton } from '@/components/common/CopyButton';
import styles from './before-update.module.css';

/** Our overall word on a target: blocked by one of our predictions, worth a look, or clear. */
export type Verdict = 'block' | 'warn' | 'pass';

/** The worst of a target's predictions (an `unknown` counts as a warning). */
export function verdictOf(predictions: readonly TargetPredictionDto[]): Verdict {
  const statuses = predictions.map((p) => p.status);
  if (statuses.includes('block')) return 'block';
  return statuses.some((s) => s === 'warn' || s === 'unknown') ? 'warn' : 'pass';
}

const LOOK: Record<TargetPredictionDto['status'], { icon: string; text: string; tone: string }> = {
  pass: { icon: '✓', text: 'Clear', tone: 'ok' },
  warn: { icon: '▲', text: 'Warn', tone: 'warning' },
  unknown: { icon: '?', text: 'Unknown', tone: 'info' },
  block: { icon: '■', text: 'Blocked', tone: 'critical' },
};

/** A prediction status as a word plus a shape (never colour alone). */
export function VerdictBadge({ verdict }: { verdict: TargetPredictionDto['status'] }) {
  const look = LOOK[verdict];
  return (
    <span className={`badge badge-${look.tone}`} data-testid="verdict" data-status={verdict}>
      <span aria-hidden="true">{look.icon}</span> {look.text}
    </span>
  );
}

function ExternalLink({ url, children }: { url: string; children: string }) {
  const safe = safeHttpUrl(url);
  return safe ? (
    <a href={safe} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ) : (
    <span>{children}</span>
  );
}

/**
 * One target: oc's judgement, each risk with its message and link, our predictions, and the command only when it is
 * safe — never while an update is in progress, never past Upgradeable=False, and for a target oc does not recommend
 * only after its risks are acknowledged by name. Mount it with `key={target.version}` so an acknowledgement does not
 * carry over to another target.
 */
export function UpdateTargetDetails({
  target,
  predictions,
  state = null,
}: {
  target: UpdateTargetDto;
  predictions: TargetPredictionDto[];
  state?: UpdateStateDto | null;
}) {
  const [acknowledged, setAcknowledged] = useState(false);
  const withheld = commandWithheld(target, predictions, state);
  const risk = riskToAcknowledge(target);
  const command = updateCommand(target, predictions, { state, acknowledged });
  return (
    <article className={styles.details} data-testid="update-target-details" aria-labelledby="target-details-title">
      <h4 id="target-details-title">Update to {target.version}</h4>
      <p className={styles.image}>
        <code>{target.image}</code>
        {target.releaseUrl ? (
          <>
            {' '}
            · <ExternalLink url={target.releaseUrl}>Release notes</ExternalLink>
          </>
        ) : null}
      </p>
      <p data-testid="oc-verdict">
        {target.recommended ? (
          'oc: no known issues relevant to this cluster.'
        ) : (
          <>
            oc: <strong>Recommended={target.recommendedStatus}</strong> ({target.reason})
          </>
        )}
      </p>
      {target.risks.length > 0 ? (
        <>
          <h5>Known risks</h5>
          <ul className={styles.risks}>
            {target.risks.map((risk) => (
              <li key={risk.name} data-testid="update-risk">
                <strong>{risk.name}</strong>{' '}
                <span className="muted">({risk.matchingRules.join(', ') || 'no rules'})</span>
                <p className={styles.message}>{risk.message}</p>
                {risk.url ? <ExternalLink url={risk.url}>{risk.url}</ExternalLink> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {/* With risks, oc's message only repeats their texts and links. */}
      {!target.recommended && target.message && target.risks.length === 0 ? (
        <p className={styles.message} data-testid="oc-message">
          {target.message}
        </p>
      ) : null}
      <h5>Our predictions</h5>
      <ul className={styles.predictions}>
        {predictions.map((p) => (
          <li key={p.check} data-testid="prediction" data-check={p.check} data-status={p.status}>
            <VerdictBadge verdict={p.status} /> <strong>{p.title}</strong>
            <p className={styles.message}>{p.detail}</p>
          </li>
        ))}
      </ul>
      {withheld.length === 0 && risk ? (
        <label className={styles.acknowledge} data-testid="acknowledge-risk">
          <input type="checkbox" checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)} /> I
          accept the risk of {risk}: oc does not recommend {target.version} for this cluster (the command then carries{' '}
          <code>--allow-not-recommended</code>).
        </label>
      ) : null}
      {command ? (
        <div className={styles.command} data-testid="update-command">
          <code id="update-command-text">{command}</code>{' '}
          <CopyButton text={command} label="Copy command" describedBy="update-command-text" />
        </div>
      ) : withheld.length > 0 ? (
        <p className={styles.note} data-testid="update-blocked">
          No command: {withheld.join('; ')}. Resolve it first.
        </p>
      ) : (
        <p className={styles.note} data-testid="update-needs-acknowledgement">
          No command until you accept the risk of {risk} above.
        </p>
      )}
    </article>
  );
}
