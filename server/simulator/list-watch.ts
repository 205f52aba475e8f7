import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCES, apiVersionOf, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { badRequest, continueExpired, invalid, tooOldResourceVersion } from './errors';
import { compileFieldSelector, compileLabelSelector, type Matcher } from './selectors';
import { entryJson, type ObjectStore, type StoreEvent, type StoredEntry } from './store';
import { ApiStatusError } from './types';
import { buildTable } from './table';

/** A list or watch request after routing. */
export interface CollectionRequest {
  req: IncomingMessage;
  res: ServerResponse;
  store: ObjectStore;
  resource: ResourceName;
  namespace?: string;
  query: URLSearchParams;
  /** Set when the client asked for a Table (`kubectl get` without -o): rows instead of objects. */
  table?: { columns: Parameters<typeof buildTable>[0]; now: () => number };
}

/** Label and field selectors of a request combined into one matcher (400 when malformed). */
export function requestMatcher(resource: ResourceName, query: URLSearchParams): Matcher | undefined {
  const labels = compileLabelSelector(query.get('labelSelector') ?? undefined);
  const fields = compileFieldSelector(resource, query.get('fieldSelector') ?? undefined);
  if (labels && fields) return (object: KubeObject) => labels(object) && fields(object);
  return labels ?? fields;
}

function writeAsync(res: ServerResponse, chunk: string): Promise<void> | undefined {
  if (res.write(chunk)) return undefined;
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams a `<Kind>List` (items are written in batches, so huge lists never become one string). */
export async function serveList(request: CollectionRequest): Promise<void> {
  const { res, store, resource, query } = request;
  const info: ResourceInfo = RESOURCES[resource];
  const limit = Number(query.get('limit') ?? '0');
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`limit must be a non-negative integer`);
  const page = store.listPage(resource, {
    namespace: request.namespace,
    matcher: requestMatcher(resource, query),
    limit: limit || undefined,
    continueToken: query.get('continue') || undefined,
  });
  const metadata: Record<string, unknown> = { resourceVersion: page.resourceVersion };
  if (page.continueToken) metadata.continue = page.continueToken;
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
  if (request.table) {
    const table = buildTable(
      request.table.columns,
      page.entries.map((entry) => entry.object),
      metadata,
      request.table.now(),
    );
    const body = JSON.stringify(table);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  const head = `{"kind":"${info.kind}List","apiVersion":"${apiVersionOf(resource)}","metadata":${JSON.stringify(metadata)},"items":[`;
  let pending = writeAsync(res, head);
  const batch = 200;
  for (let i = 0; i < page.entries.length; i += batch) {
    if (pending) await pending;
    if (res.destroyed) return;
    const parts = page.entries.slice(i, i + batch).map(entryJson);
    pending = writeAsync(res, (i === 0 ? '' : ',') + parts.join(','));
  }
  if (pending) await pending;
  res.end(']}');
}

/** Options of watch streams. */
export interface WatchOptions {
  /** Real milliseconds between BOOKMARK events when the client allows them (default 60 s). */
  bookmarkIntervalMs: number;
  /** Serve `sendInitialEvents=true` (WatchList); off, such a watch is refused as by a server without the feature. */
  watchList?: boolean;
}

/** The annotation of the BOOKMARK that ends a WatchList's initial events (KEP-3157). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

function forbiddenListOption(field: string, message: string): ApiStatusError {
  return invalid('ListOptions', 'meta.k8s.io', '', [
    { reason: 'FieldValueForbidden', field, message: `Forbidden: ${message}` },
  ]);
}

/**
 * Whether a watch asks for its initial state as events (WatchList), with kube-apiserver's validation: that needs
 * `resourceVersionMatch=NotOlderThan` and bookmarks, and `resourceVersionMatch` alone is forbidden on a watch. A
 * server without the feature refuses both parameters with the same 422, which is how clients learn to fall back.
 */
function wantsInitialEvents(query: URLSearchParams, options: WatchOptions): boolean {
  const send = query.get('sendInitialEvents');
  const match = query.get('resourceVersionMatch');
  if (send === null && !match) return false;
  if (options.watchList === false) {
    throw send === null
      ? forbiddenListOption('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch')
      : forbiddenListOption(
          'sendInitialEvents',
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        );
  }
  if (send === null)
    throw forbiddenListOption(
      'resourceVersionMatch',
      'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    );
  if (match !== 'NotOlderThan')
    throw forbiddenListOption(
      'resourceVersionMatch',
      'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  const bookmarks = query.get('allowWatchBookmarks');
  if (send === 'true' && bookmarks !== 'true' && bookmarks !== '1')
    throw forbiddenListOption(
      'allowWatchBookmarks',
      'allowWatchBookmarks must be set to true when sendInitialEvents is set',
    );
  return send === 'true' || send === '1';
}

function plainEventLine(type: string, entry: StoredEntry): string {
  return `{"type":"${type}","object":${entryJson(entry)}}\n`;
}

/** The in-stream ERROR event for a Status. */
export function errorEventLine(status: ApiStatusError): string {
  return `${JSON.stringify({ type: 'ERROR', object: status.status })}\n`;
}

/**
 * Serves a watch: 200 chunked JSON, one event per line. RV ""/"0" starts with synthetic ADDED events for the
 * current state; an RV replays retained history after it (an ERROR 410 event when it is older than that).
 * Objects moving in or out of the selectors arrive as ADDED / DELETED, like the watch cache sends them.
 * Resolves when the stream ends (timeoutSeconds, client gone, or `onClose` from a fault).
 */
export function serveWatch(
  request: CollectionRequest,
  options: WatchOptions,
  hooks: { afterReplay?: (end: () => void) => void } = {},
): Promise<void> {
  const { req, res, store, resource, query } = request;
  const info: ResourceInfo = RESOURCES[resource];
  const matcher = requestMatcher(resource, query);
  const namespace = request.namespace;
  const inScope = (entry: StoredEntry | undefined): boolean => {
    if (!entry) return false;
    if (namespace && entry.view.metadata.namespace !== namespace) return false;
    return !matcher || matcher(entry.view);
  };
  let headersSent = false;
  const eventLine = (type: string, entry: StoredEntry): string => {
    if (!request.table) return plainEventLine(type, entry);
    const table = buildTable(
      request.table.columns,
      [entry.object],
      { resourceVersion: String(entry.rv) },
      request.table.now(),
      !headersSent,
    );
    headersSent = true;
    return `${JSON.stringify({ type, object: table })}\n`;
  };
  const rvParam = query.get('resourceVersion') ?? '';
  let replay: string[] = [];
  let startError: ApiStatusError | undefined;
  if (wantsInitialEvents(query, options)) {
    // NotOlderThan any RV the client names: the current state is at least that new. One synchronous read, so the
    // bookmark's RV is exactly the state the ADDED events describe.
    replay = store.list(resource, namespace, matcher).map((entry) => eventLine('ADDED', entry));
    const end = {
      type: 'BOOKMARK',
      object: {
        kind: info.kind,
        apiVersion: apiVersionOf(resource),
        metadata: { resourceVersion: String(store.currentRv()), annotations: { [INITIAL_EVENTS_END]: 'true' } },
      },
    };
    replay.push(`${JSON.stringify(end)}\n`);
  } else if (query.get('sendInitialEvents') !== null) {
    replay = []; // sendInitialEvents=false: only changes after the RV (an empty RV means "from now")
    if (rvParam !== '' && rvParam !== '0') replay = replayFrom(rvParam);
  } else if (rvParam === '' || rvParam === '0') {
    replay = store.list(resource, namespace, matcher).map((entry) => eventLine('ADDED', entry));
  } else {
    replay = replayFrom(rvParam);
  }
  function replayFrom(rv: string): string[] {
    const since = Number(rv);
    if (!Number.isInteger(since) || since < 0) throw badRequest(`invalid resource version: "${rv}"`);
    try {
      return store.eventsSince(resource, since).flatMap((event) => translate(event));
    } catch (error) {
      if (!(error instanceof ApiStatusError)) throw error;
      startError = error;
      return [];
    }
  }
  function translate(event: StoreEvent): string[] {
    const now = inScope(event.entry);
    if (event.type === 'MODIFIED') {
      const before = event.previous ? inScope(event.previous) : now;
      if (now && before) return [eventLine('MODIFIED', event.entry)];
      if (now) return [eventLine('ADDED', event.entry)];
      if (before) return [eventLine('DELETED', event.entry)];
      return [];
    }
    return now ? [eventLine(event.type, event.entry)] : [];
  }

  // No Content-Length: HTTP/1.1 chunks the body, HTTP/2 frames it (where Transfer-Encoding is forbidden).
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  // Clients treat the watch as established once headers arrive, even when no event is due yet.
  res.flushHeaders();
  return new Promise((resolve) => {
    let ended = false;
    const cleanups: (() => void)[] = [];
    const end = () => {
      if (ended) return;
      ended = true;
      for (const cleanup of cleanups) cleanup();
      if (!res.destroyed && !res.writableEnded) res.end();
      resolve();
    };
    req.on('close', end);
    res.on('close', end);
    if (startError) {
      res.write(errorEventLine(startError));
      end();
      return;
    }
    if (replay.length) res.write(replay.join(''));
    replay = [];
    // Events of one synchronous burst go out as one write: far fewer TLS records and syscalls under churn.
    let pending: string[] = [];
    const flush = () => {
      if (pending.length && !res.destroyed) res.write(pending.join(''));
      pending = [];
    };
    cleanups.push(
      store.subscribe(resource, (event) => {
        const lines = translate(event);
        if (!lines.length) return;
        if (!pending.length) setImmediate(flush);
        pending.push(...lines);
      }),
    );
    cleanups.push(flush);
    if (query.get('allowWatchBookmarks') === 'true' || query.get('allowWatchBookmarks') === '1') {
      const timer = setInterval(() => {
        const bookmark = {
          type: 'BOOKMARK',
          object: {
            kind: info.kind,
            apiVersion: apiVersionOf(resource),
            metadata: { resourceVersion: String(store.currentRv()) },
          },
        };
        flush();
        res.write(`${JSON.stringify(bookmark)}\n`);
      }, options.bookmarkIntervalMs);
      cleanups.push(() => clearInterval(timer));
    }
    const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '0');
    if (timeoutSeconds > 0) {
      const timer = setTimeout(end, timeoutSeconds * 1000);
      cleanups.push(() => clearTimeout(timer));
    }
    hooks.afterReplay?.(end);
  });
}

/** A 410 for a watch or list the fault injector expires. */
export function expiredFor(store: ObjectStore, query: URLSearchParams): ApiStatusError {
  if (query.get('continue')) return continueExpired();
  const requested = Number(query.get('resourceVersion') || '0');
  return tooOldResourceVersion(requested, store.currentRv());
}
