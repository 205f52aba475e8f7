import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { DATABASE_FILE } from '@/server/db/database-location';
import { startPostgres, type PostgresServer } from './postgres-server';

/** How a suite opens its repository on each database. */
export interface RepositoryFactories<R> {
  sqlite(file: string): R;
  postgres(url: string): R;
}

/**
 * Runs one contract suite on SQLite (a temp file) and PostgreSQL (a throwaway server from Debian's binaries).
 * `open()` gives a new repository on the same database each time (a new "replica"); all are closed after the suite.
 */
export function describeOnEveryDatabase<R extends { close(): Promise<void> }>(
  title: string,
  factories: RepositoryFactories<R>,
  body: (open: () => R) => void,
): void {
  describe.each(['SQLite', 'PostgreSQL'] as const)(`${title}: %s`, (kind) => {
    let dir = '';
    let postgres: PostgresServer | undefined;
    const opened: R[] = [];
    beforeAll(async () => {
      if (kind === 'SQLite') dir = mkdtempSync(join(tmpdir(), 'contract-'));
      else postgres = await startPostgres();
    }, 120_000);
    afterAll(async () => {
      for (const repository of opened) await repository.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      postgres?.stop();
    });
    body(() => {
      const repository =
        kind === 'SQLite' ? factories.sqlite(join(dir, DATABASE_FILE)) : factories.postgres(postgres!.url);
      opened.push(repository);
      return repository;
    });
  });
}
