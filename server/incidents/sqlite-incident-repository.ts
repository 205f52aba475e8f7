import 'server-only';
import type Database from 'better-sqlite3';
import { openSqlite } from '@/server/db/sqlite-database';
import { incidentSchema, type IncidentDto } from '@/lib/api/incident-dto';
import { IncidentStoreError, type IncidentRepository, type IncidentUsage } from './incident-repository';

/**
 * Incidents in one SQLite file (better-sqlite3). WAL lets readers work while a write commits. `synchronous=FULL`
 * rather than NORMAL: in WAL mode NORMAL stays consistent after a crash but may lose the last commits on power loss,
 * and an incident link has already been handed out when `create` resolves. Incidents are rare, so the fsync per
 * commit costs nothing that matters.
 */
export class SqliteIncidentRepository implements IncidentRepository {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement<[string, string, string, string]>;
  private readonly select: Database.Statement<[string], { body: string }>;
  private readonly usage: Database.Statement<[string, string | null], IncidentUsage>;
  private readonly expire: Database.Statement<[string]>;

  constructor(readonly file: string) {
    this.db = openSqlite(file);
    // The quota and retention read by creation time; without it each creation would scan every stored incident.
    this.db.exec('CREATE INDEX IF NOT EXISTS incidents_created ON incidents (created_at)');
    this.insert = this.db.prepare('INSERT INTO incidents (id, cluster_id, created_at, body) VALUES (?, ?, ?, ?)');
    this.select = this.db.prepare('SELECT body FROM incidents WHERE id = ?');
    this.usage = this.db.prepare(`SELECT COUNT(*) AS count, COALESCE(SUM(length(CAST(body AS BLOB))), 0) AS bytes,
      MIN(created_at) AS oldest FROM incidents WHERE created_at >= ? AND json_extract(body, '$.createdBy') IS ?`);
    this.expire = this.db.prepare('DELETE FROM incidents WHERE created_at < ?');
  }

  async create(incident: IncidentDto): Promise<void> {
    this.insert.run(incident.id, incident.cluster.id, incident.createdAt, JSON.stringify(incident));
  }

  async get(id: string): Promise<IncidentDto | undefined> {
    const row = this.select.get(id);
    if (!row) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(row.body);
    } catch (error) {
      throw new IncidentStoreError(`incident ${id} is not valid JSON`, { cause: error });
    }
    const parsed = incidentSchema.safeParse(body);
    if (!parsed.success)
      throw new IncidentStoreError(`incident ${id} does not match the incident schema: ${parsed.error.message}`);
    return parsed.data;
  }

  async usageSince(createdBy: string | null, since: string): Promise<IncidentUsage> {
    const row = this.usage.get(since, createdBy)!;
    return { count: row.count, bytes: row.bytes, oldest: row.oldest };
  }

  async deleteOlderThan(cutoff: string): Promise<number> {
    return this.expire.run(cutoff).changes;
  }

  /** `PRAGMA integrity_check` result (`['ok']` when intact). */
  integrityCheck(): string[] {
    return (this.db.pragma('integrity_check') as { integrity_check: string }[]).map((row) => row.integrity_check);
  }

  /** Ids of every stored incident (tests and maintenance). */
  ids(): string[] {
    return (this.db.prepare('SELECT id FROM incidents ORDER BY created_at').all() as { id: string }[]).map(
      (row) => row.id,
    );
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
