import { queryOptions } from '@tanstack/react-query';
import { authInfoSchema } from '@/lib/api/auth-dto';
import { fetchJson } from './fetch-json';

/** Query options for `GET /api/auth` (who is logged in); it changes only by logging in or out. */
export const authQueries = {
  info: () =>
    queryOptions({
      queryKey: ['auth'] as const,
      queryFn: ({ signal }) => fetchJson('/api/auth', authInfoSchema, signal),
      staleTime: 5 * 60_000,
    }),
};
