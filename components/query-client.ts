import { QueryClient, isServer } from '@tanstack/react-query';

function makeQueryClient(): QueryClient {
  // Live data arrives over SSE; refetching on focus would only duplicate it.
  return new QueryClient({ defaultOptions: { queries: { staleTime: 60_000, refetchOnWindowFocus: false } } });
}

let browserClient: QueryClient | undefined;

/** A fresh client per server render, one shared client in the browser. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserClient ??= makeQueryClient();
  return browserClient;
}
