import 'server-only';
import { databaseLocation } from '@/server/db/database-location';
import { onShutdown } from '@/server/observability/shutdown';
import type { SessionRepository } from './session-repository';
import { PostgresSessionRepository } from './postgres-session-repository';
import { SqliteSessionRepository } from './sqlite-session-repository';

const holder = globalThis as unknown as { __updateHealthSessions?: SessionRepository };

/** The process-wide session repository, in the same database as the incidents ({@link databaseLocation}). */
export function getSessionRepository(): SessionRepository {
  if (!holder.__updateHealthSessions) {
    const where = databaseLocation();
    const repository =
      where.kind === 'postgres' ? new PostgresSessionRepository(where.url) : new SqliteSessionRepository(where.file);
    holder.__updateHealthSessions = repository;
    onShutdown(() => repository.close());
  }
  return holder.__updateHealthSessions;
}
