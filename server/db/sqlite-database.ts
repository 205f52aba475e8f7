import 'server-only';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MigrationError } from './postgres-migrations';

/**
 * Schema version of the SQLite file (PRAGMA user_version): 1 incidents, 2 sessions, 3 sessions keep a sealed token,
 * 4 the finding history.
 */
export const SQLITE_SCHEMA_VERSION = 4;

/**
 * The file readable by its owner only (0600; SQLite gives its -wal and -shm files the same mode), in a directory made
 * 0700 when this creates it (an existing directory is the operator's and keeps its mode).
 */
function ownerOnlyFile(file: string): void {
  const dir = dirname(file);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/**
 * Opens the embedded database file with the settings every repository on it needs (WAL, synchronous=FULL, a busy
 * timeout for the second connection) and brings its schema to this build's version.
 */
export function openSqlite(file: string): Database.Database {
  ownerOnlyFile(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SQLITE_SCHEMA_VERSION) {
    db.close();
    throw new MigrationError(`${file} has schema version ${version}; this build reads up to ${SQLITE_SCHEMA_VERSION}`);
  }
  db.transaction(() => {
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
    ) STRICT;
    CREATE TABLE IF NOT EXISTS finding_states (
      cluster_id TEXT NOT NULL,
      finding_id TEXT NOT NULL,
      detector TEXT NOT NULL,
      subject TEXT NOT NULL,
      title TEXT NOT NULL,
      severity TEXT NOT NULL,
      digest TEXT NOT NULL,
      refs TEXT NOT NULL,
      opened_at INTEGER NOT NULL,
      resolved_at INTEGER,
      evidence_at INTEGER NOT NULL,
      revision INTEGER NOT NULL,
      PRIMARY KEY (cluster_id, finding_id)
    ) STRICT;
    CREATE TABLE IF NOT EXISTS finding_events (
      cluster_id TEXT NOT NULL,
      finding_id TEXT NOT NULL,
      opened_at INTEGER NOT NULL,
      kind TEXT NOT NULL,
      at INTEGER NOT NULL,
      detector TEXT NOT NULL,
      subject TEXT NOT NULL,
      title TEXT NOT NULL,
      severity TEXT NOT NULL,
      digest TEXT NOT NULL,
      refs TEXT NOT NULL,
      PRIMARY KEY (cluster_id, finding_id, kind, at)
    ) STRICT;
    CREATE INDEX IF NOT EXISTS finding_events_cluster_opened ON finding_events (cluster_id, opened_at);
    CREATE INDEX IF NOT EXISTS finding_events_at ON finding_events (at)`);
    // Re-read inside the transaction: a second connection may have migrated meanwhile.
    if ((db.pragma('user_version', { simple: true }) as number) < 3) {
      db.exec(`ALTER TABLE sessions ADD COLUMN user_uid TEXT;
      ALTER TABLE sessions ADD COLUMN user_extra TEXT;
      ALTER TABLE sessions ADD COLUMN sealed_token TEXT NOT NULL DEFAULT '';
      ALTER TABLE sessions ADD COLUMN reviewed_at TEXT NOT NULL DEFAULT '1970-01-01T00:00:00.000Z'`);
    }
    db.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  }).immediate();
  return db;
}
