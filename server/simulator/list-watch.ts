import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCES, apiVersionOf, type ResourceInfo, type ResourceName } from '@/lib/k8s/resources';
import { badRequest, continueExpired, tooOldResourceVersion } from './errors';
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
  if (rvParam === '' || rvParam === '0') {
    replay = store.list(resource, namespace, matcher).map((entry) => eventLine('ADDED', entry));
  } else {
    const since = Number(rvParam);
    if (!Number.isInteger(since) || since < 0) throw badRequest(`invalid resource version: "${rvParam}"`);
    try {
      replay = store.eventsSince(resource, since).flatMap((event) => translate(event));
    } catch (error) {
      if (!(error instanceof ApiStatusError)) throw error;
      startError = error;
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

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache, private',
  });
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
