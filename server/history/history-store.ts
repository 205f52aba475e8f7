import 'server-only';
import { databaseLocation } from '@/server/db/database-location';
import { historyEnv } from '@/server/env';
import { startIncidentRetention } from '@/server/incidents/incident-retention';
import { onShutdown } from '@/server/observability/shutdown';
import type { FindingHistoryRepository } from './finding-history-repository';
import { PostgresFindingHistory } from './postgres-finding-history';
import { SqliteFindingHistory } from './sqlite-finding-history';

const holder = globalThis as unknown as { __updateHealthFindingHistory?: FindingHistoryRepository };

/**
 * The process-wide finding history (survives dev hot reloads), in the database {@link databaseLocation} names, with
 * its retention running (at start, then hourly: `UPDATE_HEALTH_HISTORY_RETENTION_DAYS`, default 30).
 */
export function getFindingHistory(): FindingHistoryRepository {
  if (!holder.__updateHealthFindingHistory) {
    const maxAgeDays = historyEnv().UPDATE_HEALTH_HISTORY_RETENTION_DAYS;
    const where = databaseLocation();
    const repository =
      where.kind === 'postgres' ? new PostgresFindingHistory(where.url) : new SqliteFindingHistory(where.file);
    holder.__updateHealthFindingHistory = repository;
    const retention = startIncidentRetention(repository, { maxAgeDays, what: 'history' });
    onShutdown(() => {
      retention.stop();
      return repository.close();
    });
  }
  return holder.__updateHealthFindingHistory;
}
