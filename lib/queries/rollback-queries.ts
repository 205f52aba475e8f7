import { queryOptions } from '@tanstack/react-query';
import { incidentSchema } from '@/lib/api/incident-dto';
import { rollbackPlanSchema } from '@/lib/api/rollback-dto';
import { clusterQueries, retryTransient } from './cluster-queries';
import { fetchJson } from './fetch-json';

const enc = encodeURIComponent;

/** Rollback plans re-evaluate against the live cluster this often while the guide is open. */
export const PLAN_REFRESH_MS = 3_000;

/**
 * Query options for the rollback plan of a cluster (`['clusters','detail',id,'rollback-plan',to,accept]`) and for
 * incidents (`['incidents',id]`; frozen, so never refetched).
 */
export const rollbackQueries = {
  plan: (id: string, to: string, acceptCrossMinorRisk: boolean) =>
    queryOptions({
      queryKey: [...clusterQueries.detail(id), 'rollback-plan', to, acceptCrossMinorRisk] as const,
      queryFn: ({ signal }) =>
        fetchJson(
          `/api/clusters/${enc(id)}/rollback-plan?to=${enc(to)}${acceptCrossMinorRisk ? '&acceptCrossMinorRisk=1' : ''}`,
          rollbackPlanSchema,
          signal,
        ),
      retry: retryTransient,
      refetchInterval: PLAN_REFRESH_MS,
    }),
  incident: (id: string) =>
    queryOptions({
      queryKey: ['incidents', id] as const,
      queryFn: ({ signal }) => fetchJson(`/api/incidents/${enc(id)}`, incidentSchema, signal),
      retry: retryTransient,
      staleTime: Infinity,
    }),
};
