import { queryOptions } from '@tanstack/react-query';
import { fleetUpdatesSchema, timelineSchema } from '@/lib/api/history-dto';
import { retryTransient } from './cluster-queries';
import { fetchJson } from './fetch-json';

/** Query options for the finding history: a cluster's timeline and the fleet's update durations. */
export const historyQueries = {
  /** Episodes overlapping [from, to] (epoch ms, cluster time); without them the server's last day. */
  timeline: (id: string, window: { from?: number; to?: number } = {}) => {
    const params = new URLSearchParams();
    if (window.from !== undefined) params.set('from', String(window.from));
    if (window.to !== undefined) params.set('to', String(window.to));
    const query = params.toString();
    return queryOptions({
      queryKey: ['clusters', 'detail', id, 'timeline', window.from ?? null, window.to ?? null] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          `/api/clusters/${encodeURIComponent(id)}/timeline${query ? `?${query}` : ''}`,
          timelineSchema,
          signal,
        ),
      retry: retryTransient,
    });
  },
  fleetUpdates: () =>
    queryOptions({
      queryKey: ['fleet', 'updates'] as const,
      queryFn: ({ signal }) => fetchJson('/api/fleet/updates', fleetUpdatesSchema, signal),
      retry: retryTransient,
      refetchInterval: 60_000,
    }),
};
