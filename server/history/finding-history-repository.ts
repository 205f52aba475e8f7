import 'server-only';
import type { FindingEvent, FindingState } from '@/lib/history/finding-lifecycle';

/**
 * Where the finding history lives (SQLite embedded, PostgreSQL shared by replicas). Writes are compare-and-set on a
 * finding's state revision, so two engines evaluating one cluster write each lifecycle event once.
 */
export interface FindingHistoryRepository {
  /** The stored state of one finding, or undefined when it was never seen (or retention removed it). */
  state(clusterId: string, findingId: string): Promise<FindingState | undefined>;
  /**
   * Writes `next` and its `event` in one transaction if the stored revision is still `expected` (undefined: no row
   * yet); false when another writer got there first (nothing written).
   */
  compareAndSet(next: FindingState, expected: number | undefined, event: FindingEvent): Promise<boolean>;
  /** The open findings of a cluster (what an engine reads back on start). */
  openStates(clusterId: string): Promise<FindingState[]>;
  /** Every event of the episodes that overlap [from, to] (epoch ms): opened by `to`, not resolved before `from`. */
  events(clusterId: string, from: number, to: number): Promise<FindingEvent[]>;
  /**
   * Deletes what ended before `cutoff` (RFC 3339): changes older than it, and episodes resolved before it; an open
   * episode keeps its opening. Resolves to how many events were deleted.
   */
  deleteOlderThan(cutoff: string): Promise<number>;
  close(): Promise<void>;
}

/** A stored history row could not be read back (corrupt row, schema drift). */
export class FindingHistoryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'FindingHistoryError';
  }
}
