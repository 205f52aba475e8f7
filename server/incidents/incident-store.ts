import 'server-only';
import { databaseLocation } from '@/server/db/database-location';
import { onShutdown } from '@/server/observability/shutdown';
import type { IncidentRepository } from './incident-repository';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { PostgresIncidentRepository } from './postgres-incident-repository';

const holder = globalThis as unknown as { __updateHealthIncidents?: IncidentRepository };

/** The process-wide incident repository (survives dev hot reloads), where {@link databaseLocation} says. */
export function getIncidentRepository(): IncidentRepository {
  if (!holder.__updateHealthIncidents) {
    const where = databaseLocation();
    const repository = where.kind === 'postgres' ? new PostgresIncidentRepository(where.url) : new SqliteIncidentRepository(where.file);
    holder.__updateHealthIncidents = repository;
    onShutdown(() => repository.close());
  }
  return holder.__updateHealthIncidents;
}
