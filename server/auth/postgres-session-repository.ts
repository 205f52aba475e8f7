import 'server-only';
import type pg from 'pg';
import { openPostgres } from '@/server/db/postgres-migrations';
import { userIdentitySchema, type UserIdentity } from './identity';
import type { SessionRecord, SessionRepository } from './session-repository';

interface Row {
  user_name: string;
  groups: unknown;
  user_uid: string | null;
  user_extra: unknown;
  created_at: Date;
  expires_at: Date;
  sealed_token: string;
  reviewed_at: Date;
}

function userColumns(user: UserIdentity): [string, string, string | null, string | null] {
  return [user.name, JSON.stringify(user.groups), user.uid ?? null, user.extra ? JSON.stringify(user.extra) : null];
}

/** Sessions in PostgreSQL (`UPDATE_HEALTH_DATABASE_URL`): a session made on one replica is valid on every other. */
export class PostgresSessionRepository implements SessionRepository {
  private readonly pool: pg.Pool;
  private readonly ready: Promise<void>;

  constructor(connectionString: string) {
    ({ pool: this.pool, ready: this.ready } = openPostgres(connectionString));
  }

  async create(key: string, record: SessionRecord): Promise<void> {
    await this.ready;
    await this.pool.query(
      `INSERT INTO sessions (key, user_name, groups, user_uid, user_extra, created_at, expires_at,
      sealed_token, reviewed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [key, ...userColumns(record.user), record.createdAt, record.expiresAt, record.sealedToken, record.reviewedAt],
    );
  }

  async get(key: string, now: Date): Promise<SessionRecord | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<Row>(
      `SELECT user_name, groups, user_uid, user_extra, created_at, expires_at,
      sealed_token, reviewed_at FROM sessions WHERE key = $1 AND expires_at > $2`,
      [key, now.toISOString()],
    );
    if (rows.length === 0) return undefined;
    const [row] = rows;
    const user = userIdentitySchema.safeParse({
      name: row.user_name,
      groups: row.groups,
      uid: row.user_uid ?? undefined,
      extra: row.user_extra ?? undefined,
    });
    if (!user.success) return undefined;
    return {
      user: user.data,
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      sealedToken: row.sealed_token,
      reviewedAt: row.reviewed_at.toISOString(),
    };
  }

  async reviewed(key: string, user: UserIdentity, reviewedAt: string): Promise<void> {
    await this.ready;
    await this.pool.query(
      `UPDATE sessions SET user_name = $1, groups = $2, user_uid = $3, user_extra = $4,
      reviewed_at = $5 WHERE key = $6`,
      [...userColumns(user), reviewedAt, key],
    );
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
