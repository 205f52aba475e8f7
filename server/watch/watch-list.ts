import 'server-only';
import type { KubeObject } from '@/lib/k8s/types';
import { KubeApiError } from './kube-errors';
import type { Query } from './kube-request';

/** The annotation of the BOOKMARK that ends a WatchList's initial events (KEP-3157). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * The query of a WatchList (streaming list): the current state as ADDED events, then a BOOKMARK annotated
 * {@link INITIAL_EVENTS_END}, then changes. No resourceVersion asks for a consistent read, as a LIST from RV "" does.
 */
export function watchListQuery(base: Query): Query {
  return {
    ...base,
    watch: 'true',
    sendInitialEvents: 'true',
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: 'true',
    resourceVersion: undefined,
  };
}

/** True for the BOOKMARK that says every initial event was sent. */
export function endsInitialEvents(object: KubeObject): boolean {
  return object.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';
}

/**
 * A server without WatchList refuses `sendInitialEvents`/`resourceVersionMatch` on a watch with 422 Invalid
 * (ListOptions); a 400 counts when it names those parameters (a bad selector is not a refusal). That answer means
 * "list and watch instead". Authorization, rate limits and expiry are not it.
 */
export function refusesWatchList(error: unknown): boolean {
  if (!(error instanceof KubeApiError)) return false;
  if (error.code === 422) return true;
  return error.code === 400 && /sendInitialEvents|resourceVersionMatch|WatchList/.test(error.message);
}
