import 'server-only';
import type Database from 'better-sqlite3';
import { openSqlite } from '@/server/db/sqlite-database';
import { userIdentitySchema } from './identity';
import type { SessionRecord, SessionRepository } from './session-repository';

interface Row {
  user_name: string;
  groups: string;
  created_at: string;
  expires_at: string;
}

/** Sessions in the embedded SQLite database file (beside the incidents). */
export class SqliteSessionRepository implements SessionRepository {
  private readonly db: Database.Database;

  constructor(readonly file: string) {
    this.db = openSqlite(file);
  }

  async create(key: string, record: SessionRecord): Promise<void> {
    this.db.prepare('INSERT INTO sessions (key, user_name, groups, created_at, expires_at) VALUES (?, ?, ?, ?, ?)')
      .run(key, record.user.name, JSON.stringify(record.user.groups), record.createdAt, record.expiresAt);
  }

  async get(key: string, now: Date): Promise<SessionRecord | undefined> {
    const row = this.db.prepare('SELECT user_name, groups, created_at, expires_at FROM sessions WHERE key = ?').get(key) as Row | undefined;
    if (!row || Date.parse(row.expires_at) <= now.getTime()) return undefined;
    const user = userIdentitySchema.safeParse({ name: row.user_name, groups: JSON.parse(row.groups) as unknown });
    return user.success ? { user: user.data, createdAt: row.created_at, expiresAt: row.expires_at } : undefined;
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
