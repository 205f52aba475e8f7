import 'server-only';
import { join, resolve } from 'node:path';
import { databaseEnv } from '@/server/env';

/** File name of the embedded database (incidents and sessions) inside the data directory. */
export const DATABASE_FILE = 'incidents.sqlite';

/**
 * Where incidents and sessions live: PostgreSQL when a database URL is configured (replicas share it), else one
 * SQLite file in the data directory.
 */
export function databaseLocation(): { kind: 'postgres'; url: string } | { kind: 'sqlite'; file: string } {
  const { url, dataDir } = databaseEnv();
  if (url) return { kind: 'postgres', url };
  return { kind: 'sqlite', file: join(resolve(dataDir), DATABASE_FILE) };
}
