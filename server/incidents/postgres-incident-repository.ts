import 'server-only';
import type pg from 'pg';
import { incidentSchema, type IncidentDto } from '@/lib/api/incident-dto';
import { openPostgres } from '@/server/db/postgres-migrations';
import { IncidentStoreError, type IncidentRepository, type IncidentUsage } from './incident-repository';

/**
 * Incidents in PostgreSQL (`UPDATE_HEALTH_DATABASE_URL`), so every replica of a deployment opens every link.
 * `create` resolves after the INSERT committed (synchronous_commit as the server is configured: on by default).
 * Migrations run under an advisory lock, so replicas starting together apply each one once.
 */
export class PostgresIncidentRepository implements IncidentRepository {
  private readonly pool: pg.Pool;
  private readonly ready: Promise<void>;

  constructor(connectionString: string) {
    ({ pool: this.pool, ready: this.ready } = openPostgres(connectionString));
  }

  async create(incident: IncidentDto): Promise<void> {
    await this.ready;
    await this.pool.query('INSERT INTO incidents (id, cluster_id, created_at, body) VALUES ($1, $2, $3, $4)', [
      incident.id,
      incident.cluster.id,
      incident.createdAt,
      JSON.stringify(incident),
    ]);
  }

  async get(id: string): Promise<IncidentDto | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<{ body: unknown }>('SELECT body FROM incidents WHERE id = $1', [id]);
    if (rows.length === 0) return undefined;
    const parsed = incidentSchema.safeParse(rows[0].body);
    if (!parsed.success)
      throw new IncidentStoreError(`incident ${id} does not match the incident schema: ${parsed.error.message}`);
    return parsed.data;
  }

  async usageSince(createdBy: string | null, since: string): Promise<IncidentUsage> {
    await this.ready;
    const { rows } = await this.pool.query<{ count: string; bytes: string; oldest: Date | null }>(
      `SELECT COUNT(*) AS count, COALESCE(SUM(octet_length(body::text)), 0) AS bytes, MIN(created_at) AS oldest
       FROM incidents WHERE created_at >= $1 AND (body->>'createdBy') IS NOT DISTINCT FROM $2`,
      [since, createdBy],
    );
    const row = rows[0];
    return { count: Number(row.count), bytes: Number(row.bytes), oldest: row.oldest ? row.oldest.toISOString() : null };
  }

  async deleteOlderThan(cutoff: string): Promise<number> {
    await this.ready;
    return (await this.pool.query('DELETE FROM incidents WHERE created_at < $1', [cutoff])).rowCount ?? 0;
  }

  /** Applied schema versions (tests and maintenance). */
  async schemaVersions(): Promise<number[]> {
    await this.ready;
    const { rows } = await this.pool.query<{ version: number }>(
      'SELECT version FROM schema_migrations ORDER BY version',
    );
    return rows.map((row) => row.version);
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }
}
