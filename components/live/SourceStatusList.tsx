import type { SourceStateDto } from '@/lib/api/dto';
import { formatAsOf, formatDateTime, formatSince, formatUntil } from '@/lib/view/format-time';

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
}: {
  sources: readonly SourceStateDto[];
  now: number;
  /** When the sources were captured (epoch ms); absent while live. */
  asOf?: number;
}) {
  const at = asOf === undefined ? '' : ` ${formatAsOf(asOf)}`;
  if (sources.length === 0) return <p className="muted">No sources reported{at}.</p>;
  const bad = sources.filter((s) => s.status !== 'synced');
  let summary: string;
  if (asOf !== undefined) {
    summary =
      bad.length === 0
        ? `${sources.length} sources synced${at}`
        : `${bad.length} of ${sources.length} sources not synced${at} — findings may be incomplete`;
  } else {
    summary =
      bad.length === 0
        ? `All ${sources.length} sources synced`
        : `${bad.length} of ${sources.length} sources not synced — findings may be incomplete`;
  }
  return (
    <details className="sources" open={bad.length > 0} data-testid="sources">
      <summary>{summary}</summary>
      <ul>
        {sources.map((s) => (
          <li key={`${s.resource}/${s.namespace ?? ''}`} data-status={s.status}>
            <span className={`source-status source-${s.status}`}>{s.status}</span>{' '}
            <code>
              {s.namespace ? `${s.namespace}/` : ''}
              {s.resource}
            </code>{' '}
            <span className="muted">
              since {asOf === undefined ? formatSince(s.since, now) : formatDateTime(s.since)}
            </span>
            {s.error ? (
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
