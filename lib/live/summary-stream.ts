import type { StreamMessage } from '@/lib/api/dto';

/** What the live stream sends: everything about the clusters on a cluster page, or only their fleet rows. */
export type StreamView = 'detail' | 'summary';

/**
 * A message as a stream of the given view carries it. The fleet page needs only each cluster's row: a health
 * message becomes its summary (about a fiftieth of its size) and chart messages are not sent at all, so a fleet of
 * 500 costs the server and the browser rows, not whole health documents.
 */
export function forView(message: StreamMessage, view: StreamView): StreamMessage | undefined {
  if (view === 'detail') return message;
  if (message.type === 'health') return { type: 'summary', clusterId: message.clusterId, summary: message.summary };
  return message.type === 'summary' ? message : undefined;
}
