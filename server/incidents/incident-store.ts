import 'server-only';
import { databaseLocation } from '@/server/db/database-location';
import { incidentEnv } from '@/server/env';
import { onShutdown } from '@/server/observability/shutdown';
import type { IncidentRepository } from './incident-repository';
import { SqliteIncidentRepository } from './sqlite-incident-repository';
import { PostgresIncidentRepository } from './postgres-incident-repository';
import { startIncidentRetention } from './incident-retention';

const holder = globalThis as unknown as { __updateHealthIncidents?: IncidentRepository };

/**
 * The process-wide incident repository (survives dev hot reloads), where {@link databaseLocation} says, with its
 * retention running (at start, then hourly: `UPDATE_HEALTH_INCIDENT_RETENTION_DAYS`).
 */
export function getIncidentRepository(): IncidentRepository {
  if (!holder.__updateHealthIncidents) {
    const maxAgeDays = incidentEnv().UPDATE_HEALTH_INCIDENT_RETENTION_DAYS;
    const where = databaseLocation();
    const repository =
      where.kind === 'postgres' ? new PostgresIncidentRepository(where.url) : new SqliteIncidentRepository(where.file);
    holder.__updateHealthIncidents = repository;
    const retention = startIncidentRetention(repository, { maxAgeDays });
    onShutdown(() => {
      retention.stop();
      return repository.close();
    });
  }
  return holder.__updateHealthIncidents;
}
