import type { TimelineEntryDto } from '@/lib/api/history-dto';
import { SeverityBadge } from '@/components/health/SeverityBadge';
import { formatDateTime } from '@/lib/view/format-time';
import styles from './cluster.module.css';

/** The findings open at the moment shown, from the history: what, how severe then, since and until when. */
export function TimeTravelFindings({ entries, hidden }: { entries: readonly TimelineEntryDto[]; hidden: number }) {
  return (
    <>
      {hidden > 0 ? (
        <p className="muted" data-testid="time-travel-hidden">
          {hidden} recorded finding(s) are not shown: your access does not cover every object they were built from.
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p data-testid="time-travel-none">No finding was open then.</p>
      ) : (
        <ul className={styles.timeTravelFindings} data-testid="time-travel-findings">
          {entries.map((entry) => (
            <li key={`${entry.findingId}-${entry.openedAt}`} data-finding-id={entry.findingId}>
              <SeverityBadge severity={entry.severity} /> <strong>{entry.title}</strong>{' '}
              <span className="muted">
                open since {formatDateTime(entry.openedAt)}
                {entry.resolvedAt ? `, resolved ${formatDateTime(entry.resolvedAt)}` : ', still open at the window end'}
                {entry.changes.length ? ` · ${entry.changes.length} recorded change(s)` : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
