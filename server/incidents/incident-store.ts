import 'server-only';
import { join, resolve } from 'node:path';
import { serverEnv } from '@/server/env';
import type { IncidentRepository } from './incident-repository';
import { SqliteIncidentRepository } from './sqlite-incident-repository';

/** File name of the incident database inside the data directory. */
export const INCIDENT_DB_FILE = 'incidents.sqlite';

const holder = globalThis as unknown as { __updateHealthIncidents?: IncidentRepository };

/** The process-wide incident repository: SQLite under `UPDATE_HEALTH_DATA_DIR` (survives dev hot reloads). */
export function getIncidentRepository(): IncidentRepository {
  holder.__updateHealthIncidents ??= new SqliteIncidentRepository(join(resolve(serverEnv().UPDATE_HEALTH_DATA_DIR), INCIDENT_DB_FILE));
  return holder.__updateHealthIncidents;
}
