import type { ClusterSummaryDto, StreamMessage } from '@/lib/api/dto';
import { summaryPatch } from './summary-patch';

/** What the live stream sends: everything about the clusters on a cluster page, or only their fleet rows. */
export type StreamView = 'detail' | 'summary';

const rows = new WeakMap<StreamMessage, StreamMessage>();

/**
 * A message as a stream of the given view carries it. The fleet page needs only each cluster's row: a health
 * message becomes its summary (about a fiftieth of its size) and chart messages are not sent at all, so a fleet of
 * 500 costs the server and the browser rows, not whole health documents. Clusters in `detail` go out whole in a
 * summary stream too (one browser's tabs share one stream: the fleet page's rows and a cluster page's documents).
 */
export function forView(
  message: StreamMessage,
  view: StreamView,
  detail?: ReadonlySet<string>,
): StreamMessage | undefined {
  if (view === 'detail' || detail?.has(message.clusterId)) return message;
  if (message.type === 'health') {
    // One row object per health message, whichever stream asks: frames are serialized once per message object.
    let row = rows.get(message);
    if (!row) {
      row = { type: 'summary', clusterId: message.clusterId, summary: message.summary };
      rows.set(message, row);
    }
    return row;
  }
  return message.type === 'summary' ? message : undefined;
}

/**
 * The in-order step of one stream that sends fleet rows as deltas: the first row of a cluster goes out whole, every
 * later one as a `summary-patch` of what changed since the row this stream last sent (nothing when nothing did).
 * Other messages pass unchanged. Its state is per stream, so a new connection (a resume with `Last-Event-ID`
 * included) starts with whole rows: the client's state is correct from the snapshot on. Patches carry new values,
 * never increments, so a message repeated after the snapshot cannot corrupt a row.
 */
export function summaryPatcher(): (message: StreamMessage) => StreamMessage | undefined {
  const sent = new Map<string, ClusterSummaryDto>();
  return (message) => {
    if (message.type !== 'summary') return message;
    const prev = sent.get(message.clusterId);
    sent.set(message.clusterId, message.summary);
    return prev ? summaryPatch(prev, message.summary) : message;
  };
}
