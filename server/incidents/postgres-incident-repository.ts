import 'server-only';
import pg from 'pg';
import { incidentSchema, type IncidentDto } from '@/lib/api/incident-dto';
import { IncidentStoreError, type IncidentRepository } from './incident-repository';

/** Versioned schema changes, applied in order, each once, inside one transaction with its version row. */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `CREATE TABLE incidents (
      id TEXT PRIMARY KEY,
      cluster_id TEXT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      body JSONB NOT NULL
    );
    CREATE INDEX incidents_cluster_created ON incidents (cluster_id, created_at)`,
  },
];

/**
 * Incidents in PostgreSQL (`UPDATE_HEALTH_DATABASE_URL`), so every replica of a deployment opens every link.
 * `create` resolves after the INSERT committed (synchronous_commit as the server is configured: on by default).
 * Migrations run under an advisory lock, so replicas starting together apply each one once.
 */
export class PostgresIncidentRepository implements IncidentRepository {
  private readonly pool: pg.Pool;
  private readonly ready: Promise<void>;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({ connectionString, max: 4 });
    // an idle client losing its connection must not crash the process; the next query reconnects
    this.pool.on('error', () => undefined);
    this.ready = this.migrate();
    this.ready.catch(() => undefined);
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', ['update-health-migrations']);
      await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      const newest = Math.max(0, ...applied);
      const known = Math.max(...MIGRATIONS.map((m) => m.version));
      if (newest > known) throw new IncidentStoreError(`the database has schema version ${newest}; this build knows up to ${known}`);
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new IncidentStoreError(`migration ${migration.version} failed: ${(error as Error).message}`, { cause: error });
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['update-health-migrations']).catch(() => undefined);
      client.release();
    }
  }

  async create(incident: IncidentDto): Promise<void> {
    await this.ready;
    await this.pool.query('INSERT INTO incidents (id, cluster_id, created_at, body) VALUES ($1, $2, $3, $4)',
      [incident.id, incident.cluster.id, incident.createdAt, JSON.stringify(incident)]);
  }

  async get(id: string): Promise<IncidentDto | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<{ body: unknown }>('SELECT body FROM incidents WHERE id = $1', [id]);
    if (rows.length === 0) return undefined;
    const parsed = incidentSchema.safeParse(rows[0].body);
    if (!parsed.success) throw new IncidentStoreError(`incident ${id} does not match the incident schema: ${parsed.error.message}`);
    return parsed.data;
  }

  /** Applied schema versions (tests and maintenance). */
  async schemaVersions(): Promise<number[]> {
    await this.ready;
    const { rows } = await this.pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    return rows.map((row) => row.version);
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }
}
