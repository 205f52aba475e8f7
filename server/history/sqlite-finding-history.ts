import 'server-only';
import type Database from 'better-sqlite3';
import { openSqlite } from '@/server/db/sqlite-database';
import type { FindingEvent, FindingState } from '@/lib/history/finding-lifecycle';
import type { FindingHistoryRepository } from './finding-history-repository';
import { eventFromRow, stateFromRow, type EventRow, type StateRow, stateValues } from './history-rows';

const STATE_COLUMNS =
  'cluster_id, finding_id, detector, subject, title, severity, digest, refs, opened_at, resolved_at, evidence_at, revision';
const EVENT_COLUMNS = 'cluster_id, finding_id, opened_at, kind, at, detector, subject, title, severity, digest, refs';

/**
 * The finding history in the embedded SQLite file, beside incidents and sessions. Each compare-and-set is one
 * immediate transaction. Its connection commits with `synchronous=NORMAL`, unlike incidents: better-sqlite3 writes on
 * the event loop, and a 500-cluster fleet opening its findings at start would otherwise wait on thousands of fsyncs;
 * in WAL mode NORMAL stays consistent after a crash and may lose only the last changes on power loss, which the next
 * evaluation records again.
 */
export class SqliteFindingHistory implements FindingHistoryRepository {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    this.db = openSqlite(file);
    this.db.pragma('synchronous = NORMAL');
  }

  async state(clusterId: string, findingId: string): Promise<FindingState | undefined> {
    const row = this.db
      .prepare<[string, string], StateRow>(
        `SELECT ${STATE_COLUMNS} FROM finding_states WHERE cluster_id = ? AND finding_id = ?`,
      )
      .get(clusterId, findingId);
    return row ? stateFromRow(row) : undefined;
  }

  async compareAndSet(next: FindingState, expected: number | undefined, event: FindingEvent): Promise<boolean> {
    const values = stateValues(next);
    const write = this.db.transaction((): boolean => {
      const changed =
        expected === undefined
          ? this.db
              .prepare(
                `INSERT INTO finding_states (${STATE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                 ON CONFLICT DO NOTHING`,
              )
              .run(next.clusterId, next.findingId, ...values).changes
          : this.db
              .prepare(
                `UPDATE finding_states SET detector = ?, subject = ?, title = ?, severity = ?, digest = ?, refs = ?,
                 opened_at = ?, resolved_at = ?, evidence_at = ?, revision = ?
                 WHERE cluster_id = ? AND finding_id = ? AND revision = ?`,
              )
              .run(...values, next.clusterId, next.findingId, expected).changes;
      if (changed !== 1) return false;
      this.db
        .prepare(
          `INSERT INTO finding_events (${EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        )
        .run(
          event.clusterId,
          event.findingId,
          event.openedAt,
          event.kind,
          event.at,
          event.detector,
          JSON.stringify(event.subject),
          event.title,
          event.severity,
          event.digest,
          JSON.stringify(event.refs),
        );
      return true;
    });
    return write.immediate();
  }

  async openStates(clusterId: string): Promise<FindingState[]> {
    return this.db
      .prepare<[string], StateRow>(
        `SELECT ${STATE_COLUMNS} FROM finding_states WHERE cluster_id = ? AND resolved_at IS NULL ORDER BY finding_id`,
      )
      .all(clusterId)
      .map(stateFromRow);
  }

  async events(clusterId: string, from: number, to: number): Promise<FindingEvent[]> {
    return this.db
      .prepare<[string, number, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM finding_events e WHERE cluster_id = ? AND opened_at <= ? AND NOT EXISTS (
           SELECT 1 FROM finding_events r WHERE r.cluster_id = e.cluster_id AND r.finding_id = e.finding_id
           AND r.opened_at = e.opened_at AND r.kind = 'resolved' AND r.at < ?)
         ORDER BY at, finding_id`,
      )
      .all(clusterId, to, from)
      .map(eventFromRow);
  }

  async deleteOlderThan(cutoffTime: string): Promise<number> {
    const cutoff = Date.parse(cutoffTime);
    return this.db.transaction(() => {
      const events = this.db
        .prepare(
          `DELETE FROM finding_events WHERE at < ? AND (kind <> 'opened' OR EXISTS (
             SELECT 1 FROM finding_events r WHERE r.cluster_id = finding_events.cluster_id
             AND r.finding_id = finding_events.finding_id AND r.opened_at = finding_events.opened_at
             AND r.kind = 'resolved' AND r.at < ?))`,
        )
        .run(cutoff, cutoff).changes;
      this.db.prepare('DELETE FROM finding_states WHERE resolved_at < ?').run(cutoff);
      return events;
    })();
  }

  /** Pages of the file and its page size, for measuring what the history costs. */
  storage(): { pages: number; pageSize: number } {
    return {
      pages: this.db.pragma('page_count', { simple: true }) as number,
      pageSize: this.db.pragma('page_size', { simple: true }) as number,
    };
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
