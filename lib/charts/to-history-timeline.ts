import type { ClusterInfoDto } from '@/lib/api/dto';
import { isOlderVersion, minorOf } from '@/lib/k8s/version';

/** One ClusterVersion history entry placed on a timeline, oldest first. */
export interface HistoryTimelineEntry {
  version: string;
  state: string;
  image: string;
  startedTime: string | null;
  completionTime: string | null;
  /** Version lower than the entry before it: the cluster was rolled back (same minor or cross-minor). */
  rollback: boolean;
  /** Rollback across minors (4.14 → 4.13): the case that re-applies older CRDs (failure mode B). */
  crossMinor: boolean;
  /** The newest entry: what the cluster is at or moving to. */
  current: boolean;
}

type HistoryEntry = ClusterInfoDto['history'][number];

/**
 * Orders ClusterVersion `status.history` (served newest first) oldest first and marks rollbacks: an entry whose
 * version is lower than the one before it. Entries with the same start time keep their served order.
 */
export function toHistoryTimeline(history: readonly HistoryEntry[]): HistoryTimelineEntry[] {
  const chronological = history
    .map((h, i) => ({ h, i }))
    .sort((a, b) => {
      const ta = a.h.startedTime ? Date.parse(a.h.startedTime) : NaN;
      const tb = b.h.startedTime ? Date.parse(b.h.startedTime) : NaN;
      if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta - tb;
      return b.i - a.i;
    })
    .map(({ h }) => h);
  return chronological.map((h, i) => {
    const prev = chronological[i - 1];
    const rollback = prev !== undefined && isOlderVersion(h.version, prev.version);
    return {
      version: h.version,
      state: h.state,
      image: h.image,
      startedTime: h.startedTime,
      completionTime: h.completionTime,
      rollback,
      crossMinor: rollback && minorOf(h.version) !== minorOf(prev.version),
      current: i === chronological.length - 1,
    };
  });
}
