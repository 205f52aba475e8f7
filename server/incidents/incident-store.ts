import 'server-only';
import { join, resolve } from 'node:path';
import { serverEnv } from '@/server/env';
import type { IncidentRepository } from './incident-repository';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { PostgresIncidentRepository } from './postgres-incident-repository';
import { onShutdown } from '@/server/observability/shutdown';

/** File name of the incident database inside the data directory. */
export const INCIDENT_DB_FILE = 'incidents.sqlite';

const holder = globalThis as unknown as { __updateHealthIncidents?: IncidentRepository };

/**
 * The process-wide incident repository (survives dev hot reloads): PostgreSQL when `UPDATE_HEALTH_DATABASE_URL` is
 * set (several replicas share it), else SQLite under `UPDATE_HEALTH_DATA_DIR`.
 */
export function getIncidentRepository(): IncidentRepository {
  const url = process.env.UPDATE_HEALTH_DATABASE_URL;
  if (!holder.__updateHealthIncidents) {
    const repository = url
      ? new PostgresIncidentRepository(url)
      : new SqliteIncidentRepository(join(resolve(serverEnv().UPDATE_HEALTH_DATA_DIR), INCIDENT_DB_FILE));
    holder.__updateHealthIncidents = repository;
    onShutdown(() => repository.close());
  }
  return holder.__updateHealthIncidents;
}
