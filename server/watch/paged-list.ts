import 'server-only';
import type { KubeList, KubeObject } from '@/lib/k8s/types';
import { KubeApiError } from './kube-errors';
import type { Query, RequestControls } from './kube-request';
import type { KubeTransport } from './kube-transport';

/** A complete, consistent list. */
export interface ListResult {
  items: KubeObject[];
  /** The list's resourceVersion: where a watch continues. */
  resourceVersion: string;
  /** How many times the list started over because a continue token expired. */
  restarts: number;
}

/** Inputs of `listAllPages`. */
export interface PagedListRequest {
  transport: KubeTransport;
  path: string;
  /** Extra query (labelSelector, fieldSelector). */
  query: Query;
  /** Page size (`limit`). */
  pageSize: number;
  controls: RequestControls;
  /** Applied to each item as its page arrives, so raw pages are not retained. */
  transform: (item: KubeObject) => KubeObject;
  /** Called before a restart, with the 410 that caused it. */
  onRestart?: (error: KubeApiError) => void;
  /** Called with the query of every page request (diagnostics and tests). */
  onRequest?: (query: Query) => void;
}

/**
 * LISTs every page with `limit`/`continue` from a consistent read (no resourceVersion), like client-go's pager.
 * If a continue token expires (410 on page 2 or later) the pages gathered so far are discarded, because
 * merging them with a newer snapshot would give an inconsistent list. The first restart pages again; a second
 * expiry falls back to one unpaged LIST, which has no token to expire, so the loop always ends.
 */
export async function listAllPages(request: PagedListRequest): Promise<ListResult> {
  let restarts = 0;
  for (;;) {
    const paged = restarts < 2;
    const items: KubeObject[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    let page = 0;
    try {
      do {
        const query: Query = { ...request.query, limit: paged ? request.pageSize : undefined, continue: continueToken };
        request.onRequest?.(query);
        const list = await request.transport.getJson<KubeList>(request.path, query, request.controls);
        page += 1;
        const kind = typeof list.kind === 'string' && list.kind.endsWith('List') ? list.kind.slice(0, -4) : undefined;
        for (const item of Array.isArray(list.items) ? list.items : []) {
          // list items of built-in kinds come without apiVersion/kind on the wire
          if (kind && !item.kind) item.kind = kind;
          if (list.apiVersion && !item.apiVersion) item.apiVersion = list.apiVersion;
          items.push(request.transform(item));
        }
        if (page === 1) resourceVersion = list.metadata?.resourceVersion ?? '';
        continueToken = list.metadata?.continue || undefined;
      } while (continueToken);
      return { items, resourceVersion, restarts };
    } catch (error) {
      if (error instanceof KubeApiError && error.isExpired && page > 0 && paged) {
        restarts += 1;
        request.onRestart?.(error);
        continue;
      }
      throw error;
    }
  }
}
