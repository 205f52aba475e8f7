'use client';
import { notifyManager, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { streamMessageSchema, type StreamMessage } from '@/lib/api/dto';
import { applyStreamMessage, type LiveCacheSlice } from '@/lib/live/apply-stream-message';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import type { StreamView } from '@/lib/live/summary-stream';
import { revealingReviver } from '@/lib/view/reveal-controls';

/** State of the tab's event stream. */
export type StreamStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'closed';

const FLUSH_MS = 500;
const REOPEN_MS = 10_000;

/** Applies messages to the query cache through the pure reducer, writing back only the entries that changed. */
export function applyMessagesToCache(client: QueryClient, messages: readonly StreamMessage[]): void {
  notifyManager.batch(() => {
    for (const msg of messages) {
      const keys = {
        list: clusterQueries.list().queryKey,
        health: clusterQueries.health(msg.clusterId).queryKey,
        series: clusterQueries.series(msg.clusterId).queryKey,
      };
      const before: LiveCacheSlice = {
        list: client.getQueryData(keys.list),
        health: client.getQueryData(keys.health),
        series: client.getQueryData(keys.series),
      };
      const after = applyStreamMessage(before, msg);
      if (after.list && after.list !== before.list) client.setQueryData(keys.list, after.list);
      if (after.health && after.health !== before.health) client.setQueryData(keys.health, after.health);
      if (after.series && after.series !== before.series) client.setQueryData(keys.series, after.series);
    }
  });
}

/**
 * One EventSource for the clusters on screen (`'all'`: every cluster, as the fleet page asks, with `view` 'summary'
 * for rows only), feeding the query cache. Reconnects are the browser's own (it
 * resends `Last-Event-ID`); only when the stream is closed for good (an HTTP error) is it reopened after a pause.
 * Messages are applied in batches so a burst (the snapshot sent on connect) renders once.
 */
export function useLiveStream(clusterIds: readonly string[] | 'all', view: StreamView = 'detail'): StreamStatus {
  const client = useQueryClient();
  const ids = clusterIds === 'all' ? '*' : [...new Set(clusterIds)].sort().join(',');
  const [status, setStatus] = useState<StreamStatus>('idle');

  useEffect(() => {
    if (!ids || typeof EventSource === 'undefined') return;
    let es: EventSource | null = null;
    let queue: StreamMessage[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    let disposed = false;

    const flush = (): void => {
      flushTimer = undefined;
      const batch = queue;
      queue = [];
      applyMessagesToCache(client, batch);
    };
    const onMessage = (ev: MessageEvent<string>): void => {
      let data: unknown;
      try {
        data = JSON.parse(ev.data, revealingReviver);
      } catch {
        return;
      }
      const parsed = streamMessageSchema.safeParse(data);
      if (!parsed.success) return;
      queue.push(parsed.data);
      flushTimer ??= setTimeout(flush, FLUSH_MS);
    };
    const open = (): void => {
      setStatus('connecting');
      const query = new URLSearchParams();
      if (ids !== '*') query.set('clusters', ids);
      if (view !== 'detail') query.set('view', view);
      es = new EventSource(`/api/stream?${query.toString()}`);
      for (const type of ['health', 'summary', 'summary-patch', 'samples', 'transitions']) {
        es.addEventListener(type, onMessage as EventListener);
      }
      es.onopen = () => setStatus('live');
      es.onerror = () => {
        if (disposed || !es) return;
        if (es.readyState === EventSource.CLOSED) {
          setStatus('closed');
          es.close();
          reopenTimer = setTimeout(open, REOPEN_MS);
        } else {
          setStatus('reconnecting');
        }
      };
    };
    open();
    return () => {
      disposed = true;
      es?.close();
      clearTimeout(reopenTimer);
      if (flushTimer) {
        clearTimeout(flushTimer);
        flush();
      }
    };
  }, [client, ids, view]);

  return ids ? status : 'idle';
}
