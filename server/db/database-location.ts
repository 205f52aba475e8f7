import 'server-only';
import { join, resolve } from 'node:path';

/** File name of the embedded database (incidents and sessions) inside the data directory. */
export const DATABASE_FILE = 'incidents.sqlite';

/**
 * Where incidents and sessions live: PostgreSQL when `UPDATE_HEALTH_DATABASE_URL` is set (replicas share it), else
 * one SQLite file under `UPDATE_HEALTH_DATA_DIR` (default `./data`). Read on its own: needs no kubeconfig.
 */
export function databaseLocation(): { kind: 'postgres'; url: string } | { kind: 'sqlite'; file: string } {
  const url = process.env.UPDATE_HEALTH_DATABASE_URL;
  if (url) return { kind: 'postgres', url };
  return { kind: 'sqlite', file: join(resolve(process.env.UPDATE_HEALTH_DATA_DIR || './data'), DATABASE_FILE) };
}
