import type { ClusterHealthDto } from '@/lib/api/dto';
import type { OfflineSnapshot } from './collector';
import type { OfflineErrorCode } from './errors';
import type { OfflineLimits } from './limits';

/**
 * What one analysis worker is asked to read: a path on the server, or a byte stream the parent feeds it, and the
 * cluster id the result is assessed under (never a fleet member's: see `mustGatherClusterId`).
 */
export type AnalysisTarget = ({ kind: 'path'; path: string } | { kind: 'upload'; label: string }) & {
  clusterId: string;
};

/** A target with the limits the worker reads it under. */
export type AnalysisJob = AnalysisTarget & { limits: OfflineLimits };

/** What the service keeps of an analysis: the served health and the snapshot it came from. */
export interface WorkerAnalysis {
  health: ClusterHealthDto;
  offline: Pick<OfflineSnapshot, 'snapshot' | 'now' | 'nowSource' | 'warnings' | 'stats'>;
}

/** Parent to worker: the upload's bytes, one chunk per `pull`, then its end. */
export type ParentMessage = { type: 'chunk'; chunk: Uint8Array } | { type: 'end' };

/** Worker to parent: ready for one more chunk, the analysis, or why it failed. */
export type WorkerMessage =
  | { type: 'pull' }
  | { type: 'done'; analysis: WorkerAnalysis }
  | { type: 'failed'; error: { name: string; code?: OfflineErrorCode; message: string } };
