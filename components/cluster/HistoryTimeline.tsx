import type { HistoryTimelineEntry } from '@/lib/charts/to-history-timeline';
import { formatDateTime } from '@/lib/view/format-time';
import styles from './cluster.module.css';

/** ClusterVersion history oldest first; rollbacks are marked with text and a symbol, not colour alone. */
export function HistoryTimeline({ entries }: { entries: readonly HistoryTimelineEntry[] }) {
  if (entries.length === 0) return <p className="muted">No ClusterVersion history.</p>;
  return (
    <ol className={styles.history} data-testid="history">
      {entries.map((e, i) => (
        <li
          key={`${e.version}-${e.startedTime ?? i}`}
          className={styles.historyEntry}
          data-rollback={e.rollback || undefined}
          data-testid="history-entry"
        >
          <span className={styles.historyVersion}>{e.version}</span>
          {e.rollback ? (
            <span className={styles.rollback} data-testid="rollback-marker">
              <span aria-hidden="true">↩</span> {e.crossMinor ? 'Cross-minor rollback' : 'Rollback'}
            </span>
          ) : null}
          {e.current ? <span className={styles.current}>current</span> : null}
          <span>{e.state}</span>
          <span className="muted">
            started {formatDateTime(e.startedTime)} · completed {formatDateTime(e.completionTime)}
          </span>
          <code className={styles.image}>{e.image}</code>
        </li>
      ))}
    </ol>
  );
}
