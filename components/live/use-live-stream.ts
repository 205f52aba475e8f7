'use client';
import { notifyManager, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { StreamMessage } from '@/lib/api/dto';
import { applyStreamMessage, type LiveCacheSlice } from '@/lib/live/apply-stream-message';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import type { StreamView } from '@/lib/live/summary-stream';
import { interestOf } from '@/lib/live/stream-subscription';
import { liveStreamHub, type StreamStatus } from './live-stream-hub';

const FLUSH_MS = 500;

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
 * Live updates for the clusters on screen (`'all'`: every cluster, as the fleet page asks, with `view` 'summary' for
 * rows only), fed into the query cache. The stream itself is the browser's one shared stream (live-stream-hub.ts):
 * however many tabs are open, one EventSource serves them all. Messages are applied in batches so a burst (the
 * snapshot sent on connect) renders once.
 */
export function useLiveStream(clusterIds: readonly string[] | 'all', view: StreamView = 'detail'): StreamStatus {
  const client = useQueryClient();
  const ids = clusterIds === 'all' ? '*' : [...new Set(clusterIds)].sort().join(',');
  const [status, setStatus] = useState<StreamStatus>('idle');

  useEffect(() => {
    if (!ids || typeof EventSource === 'undefined') return;
    let queue: StreamMessage[] = [];
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      flushTimer = undefined;
      const batch = queue;
      queue = [];
      applyMessagesToCache(client, batch);
    };
    const unsubscribe = liveStreamHub().subscribe({
      interest: interestOf(ids === '*' ? 'all' : ids.split(','), view),
      onMessage: (message) => {
        queue.push(message);
        flushTimer ??= setTimeout(flush, FLUSH_MS);
      },
      onStatus: setStatus,
    });
    return () => {
      unsubscribe();
      if (flushTimer) {
        clearTimeout(flushTimer);
        flush();
      }
    };
  }, [client, ids, view]);

  return ids ? status : 'idle';
}
