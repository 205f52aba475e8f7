import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { SqliteSessionRepository } from '@/server/auth/sqlite-session-repository';
import { openSqlite } from './sqlite-database';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('creates the database file readable by its owner only, in a directory only its owner may enter', () => {
  const root = mkdtempSync(join(tmpdir(), 'sqlite-mode-'));
  dirs.push(root);
  const file = join(root, 'data', 'incidents.sqlite');
  const db = openSqlite(file);
  db.prepare('INSERT INTO incidents VALUES (?, ?, ?, ?)').run('i1', 'c1', '2026-11-25T00:00:00Z', '{}');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
  expect(statSync(join(root, 'data')).mode & 0o777).toBe(0o700);
  db.close();
});

it('tightens an existing world-readable file and brings a version 2 file to version 3', async () => {
  const root = mkdtempSync(join(tmpdir(), 'sqlite-v2-'));
  dirs.push(root);
  const file = join(root, 'incidents.sqlite');
  const old = new Database(file);
  old.exec(`CREATE TABLE sessions (key TEXT PRIMARY KEY, user_name TEXT NOT NULL, groups TEXT NOT NULL,
    created_at TEXT NOT NULL, expires_at TEXT NOT NULL) STRICT; PRAGMA user_version = 2`);
  old
    .prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?)')
    .run('k1', 'sre', '["sre"]', '2026-11-25T00:00:00.000Z', '2026-11-26T00:00:00.000Z');
  old.close();
  expect(statSync(file).mode & 0o077).not.toBe(0);
  const sessions = new SqliteSessionRepository(file);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(await sessions.get('k1', new Date('2026-11-25T01:00:00Z'))).toEqual({
    user: { name: 'sre', groups: ['sre'] },
    createdAt: '2026-11-25T00:00:00.000Z',
    expiresAt: '2026-11-26T00:00:00.000Z',
    sealedToken: '',
    reviewedAt: '1970-01-01T00:00:00.000Z',
  });
  await sessions.close();
});
