import 'server-only';
import { join, resolve } from 'node:path';
import { INCIDENT_DB_FILE } from '@/server/incidents/incident-store';
import type { SessionRepository } from './session-repository';
import { PostgresSessionRepository } from './postgres-session-repository';
import { SqliteSessionRepository } from './sqlite-session-repository';
import { onShutdown } from '@/server/observability/shutdown';

const holder = globalThis as unknown as { __updateHealthSessions?: SessionRepository };

/** The process-wide session repository, in the same database as the incidents (PostgreSQL or the SQLite file). */
export function getSessionRepository(): SessionRepository {
  const url = process.env.UPDATE_HEALTH_DATABASE_URL;
  if (!holder.__updateHealthSessions) {
    const repository = url
      ? new PostgresSessionRepository(url)
      : new SqliteSessionRepository(join(resolve(process.env.UPDATE_HEALTH_DATA_DIR || './data'), INCIDENT_DB_FILE));
    holder.__updateHealthSessions = repository;
    onShutdown(() => repository.close());
  }
  return holder.__updateHealthSessions;
}
