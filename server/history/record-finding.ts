import 'server-only';
import { nextFindingState, type FindingObservation, type FindingState } from '@/lib/history/finding-lifecycle';
import type { FindingHistoryRepository } from './finding-history-repository';

const MAX_ATTEMPTS = 5;

/**
 * Records one observation (undefined: the finding is absent from a complete evaluation) against the stored state:
 * read, decide, compare-and-set; a lost race reads again and decides again, so what another replica already wrote is
 * not written twice. Resolves to the stored state afterwards (undefined: never seen and absent).
 */
export async function recordFinding(
  repository: FindingHistoryRepository,
  clusterId: string,
  findingId: string,
  observed: FindingObservation | undefined,
  now: number,
): Promise<FindingState | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const stored = await repository.state(clusterId, findingId);
    const transition = nextFindingState(clusterId, stored, observed, now);
    if (!transition) return stored;
    if (await repository.compareAndSet(transition.state, stored?.revision, transition.event)) return transition.state;
  }
  return repository.state(clusterId, findingId);
}
