import type { ActivityDto, SourceStateDto } from '@/lib/api/dto';
import { formatAsOf, formatDateTime, formatSince, formatUntil } from '@/lib/view/format-time';
import { sourceUpToDate } from '@/lib/health/tiers';

/** Words for statuses that are not failures, where the status name alone would read as one. */
const STATUS_LABELS: Partial<Record<SourceStateDto['status'], string>> = {
  idle: 'waiting for activity',
  'not-applicable': 'not applicable',
};

/** Why a source does not apply (lib/health/source-applicability.ts). */
const NOT_APPLICABLE = 'upstream-only namespace, which OpenShift does not have';

/**
 * Live/stale indicator per watched source: status word, since when, the error reason when there is one and the
 * next attempt while retrying.
 * A source that is not synced means findings that depend on it may be incomplete.
 * With `asOf` (a frozen view) every state is stated at that moment: times are absolute, no "ago", no next attempt.
 */
export function SourceStatusList({
  sources,
  now,
  asOf,
  activity,
}: {
  sources: readonly SourceStateDto[];
  now: number;
  /** When the sources were captured (epoch ms); absent while live. */
  asOf?: number;
  /** Which tier of sources the cluster reads; an idle one says what it does not read and why. */
  activity?: ActivityDto;
}) {
  const at = asOf === undefined ? '' : ` ${formatAsOf(asOf)}`;
  if (sources.length === 0) return <p className="muted">No sources reported{at}.</p>;
  // Sources waiting for activity are not read on purpose: said below, not counted as behind.
  const bad = sources.filter((s) => !sourceUpToDate(s));
  const idle = sources.filter((s) => s.status === 'idle').length;
  const inapplicable = sources.filter((s) => s.status === 'not-applicable').length;
  const read = sources.length - idle - inapplicable;
  const waiting =
    (idle > 0 ? `, ${idle} waiting for activity (not read while the cluster is idle)` : '') +
    (inapplicable > 0 ? `, ${inapplicable} not applicable (${NOT_APPLICABLE})` : '');
  let summary: string;
  if (asOf !== undefined) {
    summary =
      bad.length === 0
        ? `${read} sources synced${at}${waiting}`
        : `${bad.length} of ${sources.length} sources not synced${at} — findings may be incomplete`;
  } else {
    summary =
      bad.length === 0
        ? `${idle + inapplicable > 0 ? '' : 'All '}${read} sources synced${waiting}`
        : `${bad.length} of ${sources.length} sources not synced — findings may be incomplete`;
  }
  return (
    <details className="sources" open={bad.length > 0} data-testid="sources">
      <summary>{summary}</summary>
      {activity?.tier === 'always' ? (
        <p className="muted" data-testid="idle-tier">
          Idle since {asOf === undefined ? formatSince(activity.since, now) : formatDateTime(activity.since)} — not
          updating, no finding of warning or worse, nobody looking — so these are not read:{' '}
          {activity.waiting.join('; ')}. Opening this page reads them; findings that need them are not claimed either
          way until then.
        </p>
      ) : null}
      <ul>
        {sources.map((s) => (
          <li key={`${s.resource}/${s.namespace ?? ''}`} data-status={s.status}>
            <span className={`source-status source-${s.status}`}>{STATUS_LABELS[s.status] ?? s.status}</span>{' '}
            <code>
              {s.namespace ? `${s.namespace}/` : ''}
              {s.resource}
            </code>{' '}
            <span className="muted">
              since {asOf === undefined ? formatSince(s.since, now) : formatDateTime(s.since)}
            </span>
            {s.status === 'not-applicable' ? (
              <span className="muted"> — {NOT_APPLICABLE}; not read on OpenShift</span>
            ) : s.error ? (
              <span className="muted">
                {' — '}
                {s.status === 'synced' ? 'retrying on fresh data after ' : ''}
                {s.error.reason ? `${s.error.reason}: ` : ''}
                {s.error.message}
                {s.retryAt && asOf === undefined ? `; next attempt ${formatUntil(s.retryAt, now)}` : ''}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
