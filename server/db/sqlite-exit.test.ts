import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'sqlite-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Statements dropped, a connection closed and one still open, garbage, then exit: the teardown collects what is left.
const SCRIPT = `
const { openSqlite } = await import('./server/db/sqlite-database.ts');
const open = [];
for (let k = 0; k < 4; k += 1) {
  const db = openSqlite(process.env.DB_FILE + k);
  for (let i = 0; i < 2000; i += 1) db.prepare('SELECT count(*) FROM incidents WHERE id = ?').get(String(i));
  if (k % 2) db.close(); else open.push(db);
}
globalThis.keep = [open, Array.from({ length: 200000 }, (_, i) => ({ i, s: 'x'.repeat(20) }))];
process.exit(0);
`;

describe('the embedded SQLite database on this Node.js', () => {
  it('lets the process exit cleanly with statements and connections left to the garbage collector', () => {
    for (let run = 0; run < 3; run += 1) {
      const result = spawnSync(
        process.execPath,
        ['--conditions=react-server', '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
        { encoding: 'utf8', timeout: 60_000, env: { ...process.env, DB_FILE: join(dir, `run${run}-`) } },
      );
      expect({ status: result.status, signal: result.signal, stderr: result.stderr }).toEqual({
        status: 0,
        signal: null,
        stderr: '',
      });
    }
  }, 180_000);
});
