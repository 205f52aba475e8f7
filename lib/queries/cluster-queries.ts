import { queryOptions } from '@tanstack/react-query';
import { clusterHealthSchema, clusterListSchema, clusterSeriesSchema } from '@/lib/api/dto';
import { ApiError } from './api-error';
import { fetchJson } from './fetch-json';

const enc = encodeURIComponent;

/** Retries transient failures only: a 4xx (unknown cluster, bad request) will not heal by asking again. */
export function retryTransient(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 3;
}

/**
 * Query-option factories for clusters. Keys are hierarchical so `clusterQueries.all` invalidates everything and
 * `clusterQueries.detail(id)` everything about one cluster:
 * `['clusters','list']`, `['clusters','detail',id,'health']`, `['clusters','detail',id,'series']`.
 */
export const clusterQueries = {
  all: ['clusters'] as const,
  detail: (id: string) => [...clusterQueries.all, 'detail', id] as const,
  list: () =>
    queryOptions({
      queryKey: [...clusterQueries.all, 'list'] as const,
      queryFn: ({ signal }) => fetchJson('/api/clusters', clusterListSchema, signal),
      retry: retryTransient,
    }),
  health: (id: string) =>
    queryOptions({
      queryKey: [...clusterQueries.detail(id), 'health'] as const,
      queryFn: ({ signal }) => fetchJson(`/api/clusters/${enc(id)}/health`, clusterHealthSchema, signal),
      retry: retryTransient,
    }),
  /** A light version of `series` for fleet sparklines (60 points per detector), refreshed by polling. */
  sparkline: (id: string) =>
    queryOptions({
      queryKey: [...clusterQueries.detail(id), 'sparkline'] as const,
      queryFn: ({ signal }) => fetchJson(`/api/clusters/${enc(id)}/series?max=60`, clusterSeriesSchema, signal),
      retry: retryTransient,
      refetchInterval: 15_000,
    }),
  series: (id: string) =>
    queryOptions({
      queryKey: [...clusterQueries.detail(id), 'series'] as const,
      queryFn: ({ signal }) => fetchJson(`/api/clusters/${enc(id)}/series`, clusterSeriesSchema, signal),
      retry: retryTransient,
    }),
};
