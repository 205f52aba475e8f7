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
  // A setting read at run time, not a file of the build: keep the build's file tracing away from it.
  return { kind: 'sqlite', file: join(resolve(/* turbopackIgnore: true */ dataDir), DATABASE_FILE) };
}
