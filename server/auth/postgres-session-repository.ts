import 'server-only';
import type pg from 'pg';
import { openPostgres } from '@/server/db/postgres-migrations';
import { userIdentitySchema } from './identity';
import type { SessionRecord, SessionRepository } from './session-repository';

/** Sessions in PostgreSQL (`UPDATE_HEALTH_DATABASE_URL`): a session made on one replica is valid on every other. */
export class PostgresSessionRepository implements SessionRepository {
  private readonly pool: pg.Pool;
  private readonly ready: Promise<void>;

  constructor(connectionString: string) {
    ({ pool: this.pool, ready: this.ready } = openPostgres(connectionString));
  }

  async create(key: string, record: SessionRecord): Promise<void> {
    await this.ready;
    await this.pool.query('INSERT INTO sessions (key, user_name, groups, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
      [key, record.user.name, JSON.stringify(record.user.groups), record.createdAt, record.expiresAt]);
  }

  async get(key: string, now: Date): Promise<SessionRecord | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<{ user_name: string; groups: unknown; created_at: Date; expires_at: Date }>(
      'SELECT user_name, groups, created_at, expires_at FROM sessions WHERE key = $1 AND expires_at > $2', [key, now.toISOString()]);
    if (rows.length === 0) return undefined;
    const user = userIdentitySchema.safeParse({ name: rows[0].user_name, groups: rows[0].groups });
    return user.success ? { user: user.data, createdAt: rows[0].created_at.toISOString(), expiresAt: rows[0].expires_at.toISOString() } : undefined;
  }

  async delete(key: string): Promise<void> {
    await this.ready;
    await this.pool.query('DELETE FROM sessions WHERE key = $1', [key]);
  }

  async purgeExpired(now: Date): Promise<number> {
    await this.ready;
    return (await this.pool.query('DELETE FROM sessions WHERE expires_at <= $1', [now.toISOString()])).rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }
}
