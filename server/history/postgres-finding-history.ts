import 'server-only';
import type pg from 'pg';
import { openPostgres } from '@/server/db/postgres-migrations';
import type { FindingEvent, FindingState } from '@/lib/history/finding-lifecycle';
import type { FindingHistoryRepository } from './finding-history-repository';
import { eventFromRow, stateFromRow, type EventRow, type StateRow, stateValues } from './history-rows';

const STATE_COLUMNS =
  'cluster_id, finding_id, detector, subject, title, severity, digest, refs, opened_at, resolved_at, evidence_at, revision';
const EVENT_COLUMNS = 'cluster_id, finding_id, opened_at, kind, at, detector, subject, title, severity, digest, refs';

/**
 * The finding history in PostgreSQL (`UPDATE_HEALTH_DATABASE_URL`), shared by every replica. A compare-and-set is an
 * INSERT … ON CONFLICT DO NOTHING or an UPDATE … WHERE revision = expected, with its event, in one transaction:
 * of two replicas writing the same change, one commits and the other sees no row changed and writes nothing.
 */
export class PostgresFindingHistory implements FindingHistoryRepository {
  private readonly pool: pg.Pool;
  private readonly ready: Promise<void>;

  constructor(connectionString: string) {
    ({ pool: this.pool, ready: this.ready } = openPostgres(connectionString));
  }

  async state(clusterId: string, findingId: string): Promise<FindingState | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<StateRow>(
      `SELECT ${STATE_COLUMNS} FROM finding_states WHERE cluster_id = $1 AND finding_id = $2`,
      [clusterId, findingId],
    );
    return rows[0] ? stateFromRow(rows[0]) : undefined;
  }

  async compareAndSet(next: FindingState, expected: number | undefined, event: FindingEvent): Promise<boolean> {
    await this.ready;
    const values = stateValues(next);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result =
        expected === undefined
          ? await client.query(
              `INSERT INTO finding_states (${STATE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
               ON CONFLICT DO NOTHING`,
              [next.clusterId, next.findingId, ...values],
            )
          : await client.query(
              `UPDATE finding_states SET detector = $1, subject = $2, title = $3, severity = $4, digest = $5, refs = $6,
               opened_at = $7, resolved_at = $8, evidence_at = $9, revision = $10
               WHERE cluster_id = $11 AND finding_id = $12 AND revision = $13`,
              [...values, next.clusterId, next.findingId, expected],
            );
      if (result.rowCount !== 1) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query(
        `INSERT INTO finding_events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT DO NOTHING`,
        [
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
        ],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async openStates(clusterId: string): Promise<FindingState[]> {
    await this.ready;
    const { rows } = await this.pool.query<StateRow>(
      `SELECT ${STATE_COLUMNS} FROM finding_states WHERE cluster_id = $1 AND resolved_at IS NULL ORDER BY finding_id`,
      [clusterId],
    );
    return rows.map(stateFromRow);
  }

  async events(clusterId: string, from: number, to: number): Promise<FindingEvent[]> {
    await this.ready;
    const { rows } = await this.pool.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM finding_events e WHERE cluster_id = $1 AND opened_at <= $2 AND NOT EXISTS (
         SELECT 1 FROM finding_events r WHERE r.cluster_id = e.cluster_id AND r.finding_id = e.finding_id
         AND r.opened_at = e.opened_at AND r.kind = 'resolved' AND r.at < $3)
       ORDER BY at, finding_id`,
      [clusterId, to, from],
    );
    return rows.map(eventFromRow);
  }

  async deleteOlderThan(cutoffTime: string): Promise<number> {
    const cutoff = Date.parse(cutoffTime);
    await this.ready;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const events = await client.query(
        `DELETE FROM finding_events e WHERE at < $1 AND (kind <> 'opened' OR EXISTS (
           SELECT 1 FROM finding_events r WHERE r.cluster_id = e.cluster_id AND r.finding_id = e.finding_id
           AND r.opened_at = e.opened_at AND r.kind = 'resolved' AND r.at < $1))`,
        [cutoff],
      );
      await client.query('DELETE FROM finding_states WHERE resolved_at < $1', [cutoff]);
      await client.query('COMMIT');
      return events.rowCount ?? 0;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Bytes of the history tables with their indexes and TOAST (`pg_total_relation_size`). */
  async storageBytes(): Promise<number> {
    await this.ready;
    const { rows } = await this.pool.query<{ bytes: string }>(
      `SELECT pg_total_relation_size('finding_events') + pg_total_relation_size('finding_states') AS bytes`,
    );
    return Number(rows[0].bytes);
  }

  /** Copies this database's events under cluster ids with `suffix` appended (the storage benchmark's scale-up). */
  async copyEventsForMeasurement(suffix: string): Promise<number> {
    await this.ready;
    const result = await this.pool.query(
      `INSERT INTO finding_events SELECT cluster_id || $1, finding_id, opened_at, kind, at, detector, subject, title,
       severity, digest, refs FROM finding_events WHERE cluster_id NOT LIKE '%-copy%'`,
      [suffix],
    );
    return result.rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }
}
