import 'server-only';
import type Database from 'better-sqlite3';
import { openSqlite } from '@/server/db/sqlite-database';
import { userIdentitySchema, type UserIdentity } from './identity';
import type { SessionRecord, SessionRepository } from './session-repository';

interface Row {
  user_name: string;
  groups: string;
  user_uid: string | null;
  user_extra: string | null;
  created_at: string;
  expires_at: string;
  sealed_token: string;
  reviewed_at: string;
}

function userColumns(user: UserIdentity): [string, string, string | null, string | null] {
  return [user.name, JSON.stringify(user.groups), user.uid ?? null, user.extra ? JSON.stringify(user.extra) : null];
}

/** Sessions in the embedded SQLite database file (beside the incidents). */
export class SqliteSessionRepository implements SessionRepository {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    this.db = openSqlite(file);
  }

  async create(key: string, record: SessionRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO sessions (key, user_name, groups, user_uid, user_extra, created_at, expires_at,
      sealed_token, reviewed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(key, ...userColumns(record.user), record.createdAt, record.expiresAt, record.sealedToken, record.reviewedAt);
  }

  async get(key: string, now: Date): Promise<SessionRecord | undefined> {
    const row = this.db
      .prepare(
        `SELECT user_name, groups, user_uid, user_extra, created_at, expires_at, sealed_token,
      reviewed_at FROM sessions WHERE key = ?`,
      )
      .get(key) as Row | undefined;
    if (!row || Date.parse(row.expires_at) <= now.getTime()) return undefined;
    const user = userIdentitySchema.safeParse({
      name: row.user_name,
      groups: JSON.parse(row.groups) as unknown,
      uid: row.user_uid ?? undefined,
      extra: row.user_extra === null ? undefined : (JSON.parse(row.user_extra) as unknown),
    });
    if (!user.success) return undefined;
    return {
      user: user.data,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      sealedToken: row.sealed_token,
      reviewedAt: row.reviewed_at,
    };
  }

  async reviewed(key: string, user: UserIdentity, reviewedAt: string): Promise<void> {
    this.db
      .prepare(
        `UPDATE sessions SET user_name = ?, groups = ?, user_uid = ?, user_extra = ?, reviewed_at = ?
      WHERE key = ?`,
      )
      .run(...userColumns(user), reviewedAt, key);
  }

  async delete(key: string): Promise<void> {
    this.db.prepare('DELETE FROM sessions WHERE key = ?').run(key);
  }

  async purgeExpired(now: Date): Promise<number> {
    return this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now.toISOString()).changes;
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
