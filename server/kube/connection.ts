import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';
import type { SourceStateDto } from '@/lib/api/dto';
import type { ResourceNeed } from '@/lib/health/types';

/**
 * A change delivered by a watched source, after its cache was updated; `status`: its status changed (forbidden,
 * unreachable, stale, recovered) or a source that never synced failed or retries, after `state()` says so.
 */
export type SourceEvent =
  | { type: 'added' | 'modified' | 'deleted'; object: KubeObject; synthetic?: boolean }
  | { type: 'synced' }
  | { type: 'status' };

/** One watched resource (optionally one namespace) of one cluster. */
export interface SourceHandle {
  start(): void;
  stop(): void;
  state(): SourceStateDto;
  /** Its `state().status`, read without building the state (a fleet's metrics read every source). */
  status(): SourceStateDto['status'];
  /** The cached projections. */
  objects(): readonly KubeObject[];
  /** Object events delivered and relists done since the source started (for the service's metrics). */
  counters?(): { events: number; relists: number };
}

/** A plain-text GET answer (pod logs, proxied endpoints). */
export interface TextResponse {
  status: number;
  body: string;
}

/** Everything the engine needs from one cluster: watches and read-only GETs. */
export interface ClusterConnection {
  watch(need: ResourceNeed, onEvent: (event: SourceEvent) => void): SourceHandle;
  getText(path: string, options?: { timeoutMs?: number }): Promise<TextResponse>;
  /** POSTs a review (TokenReview, SubjectAccessReview) with the service's identity and returns the answer. */
  review<T>(path: string, body: unknown): Promise<T>;
  /** Estimated cluster time (epoch ms). */
  now(): number;
  /** True once an answer of the cluster set its clock; before that {@link now} is the local clock, a guess. */
  clockHeard(): boolean;
  close(): void;
}
