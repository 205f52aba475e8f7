import type { StreamMessage } from '@/lib/api/dto';
import { forView, type StreamView } from './summary-stream';

/**
 * What one consumer of the live stream needs: fleet rows (`summary`) and whole cluster documents (`detail`: health,
 * samples, transitions — a cluster's row comes with its health) for the listed cluster ids, or for every cluster.
 */
export interface StreamInterest {
  summary: 'all' | readonly string[];
  detail: 'all' | readonly string[];
}

/** The interest a page states as `useLiveStream(ids, view)` does. */
export function interestOf(clusterIds: readonly string[] | 'all', view: StreamView): StreamInterest {
  const ids = clusterIds === 'all' ? 'all' : [...new Set(clusterIds)].sort();
  return view === 'summary' ? { summary: ids, detail: [] } : { summary: [], detail: ids };
}

/** Interest in nothing: no stream needed. */
export function isEmptyInterest(interest: StreamInterest): boolean {
  return interest.summary !== 'all' && interest.detail !== 'all' && !interest.summary.length && !interest.detail.length;
}

function unionIds(sets: readonly ('all' | readonly string[])[]): 'all' | string[] {
  if (sets.includes('all')) return 'all';
  return [...new Set(sets.flatMap((s) => s as readonly string[]))].sort();
}

/**
 * The one stream that serves every interest (the tabs of one browser share a stream): rows for the union of rows,
 * documents for the union of documents. A cluster wanted in detail anywhere is sent in detail.
 */
export function unionInterest(interests: readonly StreamInterest[]): StreamInterest {
  return { summary: unionIds(interests.map((i) => i.summary)), detail: unionIds(interests.map((i) => i.detail)) };
}

/** Same interest (order-insensitive ids, as {@link interestOf} and {@link unionInterest} sort them). */
export function sameInterest(a: StreamInterest, b: StreamInterest): boolean {
  const same = (x: 'all' | readonly string[], y: 'all' | readonly string[]) =>
    x === 'all' || y === 'all' ? x === y : x.length === y.length && x.every((id, i) => id === y[i]);
  return same(a.summary, b.summary) && same(a.detail, b.detail);
}

/**
 * The query of `/api/stream` that serves an interest: `clusters` (omitted: every cluster), `view=summary` when some
 * clusters are wanted as rows only, and `detail` naming the clusters sent whole in such a stream.
 */
export function streamQuery(interest: StreamInterest): URLSearchParams {
  const query = new URLSearchParams();
  const { summary, detail } = interest;
  if (detail === 'all') return query;
  const rowsOnly = summary === 'all' ? true : summary.some((id) => !detail.includes(id));
  const clusters = summary === 'all' ? 'all' : unionIds([summary, detail]);
  if (clusters !== 'all') query.set('clusters', clusters.join(','));
  if (rowsOnly) {
    query.set('view', 'summary');
    if (detail.length) query.set('detail', detail.join(','));
  }
  return query;
}

const wants = (ids: 'all' | readonly string[], id: string) => ids === 'all' || ids.includes(id);

/**
 * A message of a shared stream as one consumer should apply it: whole where it wants the cluster in detail, as a row
 * where it wants only rows (a health message sent for another tab becomes its row), nothing otherwise.
 */
export function messageFor(interest: StreamInterest, message: StreamMessage): StreamMessage | undefined {
  if (wants(interest.detail, message.clusterId)) return message;
  if (!wants(interest.summary, message.clusterId)) return undefined;
  // Patches exist only on the wire (the stream's last step): they are rows already.
  return message.type === 'summary-patch' ? message : forView(message, 'summary');
}
