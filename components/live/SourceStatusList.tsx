import type { SourceStateDto } from '@/lib/api/dto';
import { formatSince, formatUntil } from '@/lib/view/format-time';

/**
 * Live/stale indicator per watched source: status word, since when, the error reason when there is one and the
 * next attempt while retrying.
 * A source that is not synced means findings that depend on it may be incomplete.
 */
export function SourceStatusList({ sources, now }: { sources: readonly SourceStateDto[]; now: number }) {
  if (sources.length === 0) return <p className="muted">No sources reported.</p>;
  const bad = sources.filter((s) => s.status !== 'synced');
  return (
    <details className="sources" open={bad.length > 0} data-testid="sources">
      <summary>
        {bad.length === 0 ? `All ${sources.length} sources synced` : `${bad.length} of ${sources.length} sources not synced — findings may be incomplete`}
      </summary>
      <ul>
        {sources.map((s) => (
          <li key={`${s.resource}/${s.namespace ?? ''}`} data-status={s.status}>
            <span className={`source-status source-${s.status}`}>{s.status}</span>{' '}
            <code>{s.namespace ? `${s.namespace}/` : ''}{s.resource}</code>{' '}
            <span className="muted">since {formatSince(s.since, now)}</span>
            {s.error ? (
              <span className="muted">
                {' — '}{s.status === 'synced' ? 'retrying on fresh data after ' : ''}{s.error.reason ? `${s.error.reason}: ` : ''}{s.error.message}
                {s.retryAt ? `; next attempt ${formatUntil(s.retryAt, now)}` : ''}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
