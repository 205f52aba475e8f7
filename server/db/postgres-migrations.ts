import 'server-only';
import pg from 'pg';

/** Thrown when the database schema cannot be brought to this build's version. */
export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

/** Versioned schema changes of the shared database (incidents, sessions, finding history), applied in order, each once. */
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
  {
    version: 2,
    sql: `CREATE TABLE sessions (
      key TEXT PRIMARY KEY,
      user_name TEXT NOT NULL,
      groups JSONB NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      expires_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX sessions_expires ON sessions (expires_at)`,
  },
  {
    // Sessions keep their (sealed) OAuth token and are reviewed again; older sessions have no token and end at once.
    version: 3,
    sql: `ALTER TABLE sessions ADD COLUMN user_uid TEXT;
    ALTER TABLE sessions ADD COLUMN user_extra JSONB;
    ALTER TABLE sessions ADD COLUMN sealed_token TEXT NOT NULL DEFAULT '';
    ALTER TABLE sessions ADD COLUMN reviewed_at TIMESTAMPTZ NOT NULL DEFAULT 'epoch'`,
  },
  {
    // The finding history: one state row per finding (compare-and-set on revision) and its lifecycle events, each
    // stored once (the primary key), times in epoch milliseconds.
    version: 4,
    sql: `CREATE TABLE finding_states (
      cluster_id TEXT NOT NULL,
      finding_id TEXT NOT NULL,
      detector TEXT NOT NULL,
      subject JSONB NOT NULL,
      title TEXT NOT NULL,
      severity TEXT NOT NULL,
      digest TEXT NOT NULL,
      refs JSONB NOT NULL,
      opened_at BIGINT NOT NULL,
      resolved_at BIGINT,
      evidence_at BIGINT NOT NULL,
      revision INTEGER NOT NULL,
      PRIMARY KEY (cluster_id, finding_id)
    );
    CREATE TABLE finding_events (
      cluster_id TEXT NOT NULL,
      finding_id TEXT NOT NULL,
      opened_at BIGINT NOT NULL,
      kind TEXT NOT NULL,
      at BIGINT NOT NULL,
      detector TEXT NOT NULL,
      subject JSONB NOT NULL,
      title TEXT NOT NULL,
      severity TEXT NOT NULL,
      digest TEXT NOT NULL,
      refs JSONB NOT NULL,
      PRIMARY KEY (cluster_id, finding_id, kind, at)
    );
    CREATE INDEX finding_events_cluster_opened ON finding_events (cluster_id, opened_at);
    CREATE INDEX finding_events_at ON finding_events (at)`,
  },
];

/**
 * Brings the database to the newest schema: under an advisory lock (replicas starting together apply each migration
 * once), each migration in one transaction with its version row. Refuses a database newer than this build.
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['update-health-migrations']);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const newest = Math.max(0, ...applied);
    const known = Math.max(...MIGRATIONS.map((m) => m.version));
    if (newest > known)
      throw new MigrationError(`the database has schema version ${newest}; this build knows up to ${known}`);
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new MigrationError(`migration ${migration.version} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['update-health-migrations']).catch(() => undefined);
    client.release();
  }
}

/**
 * A pool on the shared database whose schema is being brought up to date: every repository awaits `ready` before its
 * first query. An idle client losing its connection must not crash the process (the next query reconnects), and a
 * failed migration surfaces on the first query, not as an unhandled rejection.
 */
export function openPostgres(connectionString: string): { pool: pg.Pool; ready: Promise<void> } {
  const pool = new pg.Pool({ connectionString, max: 4 });
  pool.on('error', () => undefined);
  const ready = migrate(pool);
  ready.catch(() => undefined);
  return { pool, ready };
}
