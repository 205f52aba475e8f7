import 'server-only';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MigrationError } from './postgres-migrations';

/** Schema version of the SQLite file (PRAGMA user_version): 1 incidents, 2 sessions. */
export const SQLITE_SCHEMA_VERSION = 2;

/**
 * Opens the embedded database file with the settings every repository on it needs (WAL, synchronous=FULL, a busy
 * timeout for the second connection) and brings its schema to this build's version.
 */
export function openSqlite(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SQLITE_SCHEMA_VERSION) {
    db.close();
    throw new MigrationError(`${file} has schema version ${version}; this build reads up to ${SQLITE_SCHEMA_VERSION}`);
  }
  db.exec(`CREATE TABLE IF NOT EXISTS incidents (
    id TEXT PRIMARY KEY,
    cluster_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS sessions (
    key TEXT PRIMARY KEY,
    user_name TEXT NOT NULL,
    groups TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) STRICT`);
  db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  return db;
}
