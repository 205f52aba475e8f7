import type { StreamMessage } from '@/lib/api/dto';

/** What the live stream sends: everything about the clusters on a cluster page, or only their fleet rows. */
export type StreamView = 'detail' | 'summary';

const rows = new WeakMap<StreamMessage, StreamMessage>();

/**
 * A message as a stream of the given view carries it. The fleet page needs only each cluster's row: a health
 * message becomes its summary (about a fiftieth of its size) and chart messages are not sent at all, so a fleet of
 * 500 costs the server and the browser rows, not whole health documents.
 */
export function forView(message: StreamMessage, view: StreamView): StreamMessage | undefined {
  if (view === 'detail') return message;
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
