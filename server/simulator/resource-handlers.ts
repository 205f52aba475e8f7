import type { IncomingMessage, ServerResponse } from 'node:http';
import { load } from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { SimulatedCluster } from './core';
import { badRequest, failure, notFound, unsupportedPatchType } from './errors';
import { readBody, sendJson, sendStatus, sendText } from './http-util';
import { requestMatcher, serveList, serveWatch, type WatchOptions } from './list-watch';
import { entryJson, type StoredEntry } from './store';
import { ApiStatusError, type PatchType } from './types';
import { buildTable, tableColumns, wantsTable } from './table';
import { SCALABLE_RESOURCES, serveScale } from './scale-subresource';

/** A routed request for a resource, its subresource, logs or proxy. */
export interface ResourceRequest {
  req: IncomingMessage;
  res: ServerResponse;
  cluster: SimulatedCluster;
  resource: ResourceName;
  verb: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  port?: number;
  proxyPath?: string;
  query: URLSearchParams;
  watch: WatchOptions;
  /** Called by watches once the stream is open (fault hooks use it to drop or close the stream). */
  afterReplay?: (end: () => void) => void;
}

function sendEntry(res: ServerResponse, code: number, entry: StoredEntry): void {
  sendText(res, code, entryJson(entry), 'application/json');
}

const PATCH_TYPES: Record<string, PatchType | 'apply'> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`error decoding request body: ${(error as Error).message}`);
  }
}

function manager(req: IncomingMessage, query: URLSearchParams): string {
  const explicit = query.get('fieldManager');
  if (explicit) return explicit;
  const agent = req.headers['user-agent'] ?? 'unknown';
  return agent.split('/')[0] || 'unknown';
}

/** Serves one resource request; throws ApiStatusError for API errors. */
export async function handleResourceRequest(request: ResourceRequest): Promise<void> {
  const { req, res, cluster, resource, namespace, name, subresource, query } = request;
  const api = cluster.api;
  const dryRun = query.getAll('dryRun').includes('All');
  if (subresource === 'log') return serveLog(request);
  if (subresource === 'proxy') return serveProxy(request);
  if (subresource === 'scale' && (SCALABLE_RESOURCES as readonly string[]).includes(resource) && name) {
    const scaleWrite = { manager: manager(req, query), dryRun };
    return serveScale({ req, res, api, verb: request.verb, name, namespace, write: scaleWrite });
  }
  if (subresource && subresource !== 'status')
    throw new ApiStatusError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
  if (subresource === 'status' && !api.hasStatus(resource)) {
    throw new ApiStatusError(failure(404, 'NotFound', 'the server could not find the requested resource', {}));
  }
  const write = { manager: manager(req, query), dryRun, subresource: subresource as 'status' | undefined };
  const columns = wantsTable(req.headers.accept) && !subresource ? tableColumns(api, resource) : undefined;
  const table = columns ? { columns, now: () => cluster.clock.now() } : undefined;
  switch (request.verb) {
    case 'list':
      return serveList({ req, res, store: cluster.store, resource, namespace, query, table });
    case 'watch':
      return serveWatch({ req, res, store: cluster.store, resource, namespace, query, table }, request.watch, {
        afterReplay: request.afterReplay,
      });
    case 'get': {
      const entry = api.get(resource, name as string, namespace);
      if (table)
        return sendJson(
          res,
          200,
          buildTable(table.columns, [entry.object], { resourceVersion: String(entry.rv) }, table.now()),
        );
      return sendEntry(res, 200, entry);
    }
    case 'create': {
      const body = parseJson(await readBody(req)) as KubeObject;
      return sendEntry(res, 201, api.create(resource, body, namespace, write));
    }
    case 'update': {
      const body = parseJson(await readBody(req)) as KubeObject;
      if (body?.metadata?.name && body.metadata.name !== name) {
        throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
      }
      return sendEntry(
        res,
        200,
        api.update(resource, { ...body, metadata: { ...body?.metadata, name: name as string } }, namespace, write),
      );
    }
    case 'patch': {
      const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim();
      const type = PATCH_TYPES[contentType];
      if (!type) throw unsupportedPatchType();
      const text = await readBody(req);
      if (type === 'apply') {
        const body = load(text) as KubeObject;
        if (!query.get('fieldManager')) throw badRequest('PATCH /apply requires a fieldManager to be set');
        const existing = cluster.store.get(resource, namespace, name as string);
        if (!existing)
          return sendEntry(
            res,
            201,
            api.create(resource, { ...body, metadata: { ...body.metadata, name: name as string } }, namespace, {
              ...write,
              operation: 'Apply',
            }),
          );
        return sendEntry(
          res,
          200,
          api.patch(resource, name as string, namespace, body, 'merge', { ...write, operation: 'Apply' }),
        );
      }
      return sendEntry(res, 200, api.patch(resource, name as string, namespace, parseJson(text), type, write));
    }
    case 'delete':
      return sendEntry(res, 200, api.delete(resource, name as string, namespace, { dryRun }));
    case 'deletecollection': {
      const entries = cluster.store.list(resource, namespace, requestMatcher(resource, query));
      for (const entry of entries)
        api.delete(resource, entry.object.metadata.name, entry.object.metadata.namespace, { dryRun });
      return sendJson(res, 200, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' });
    }
    default:
      return sendStatus(
        res,
        failure(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, {}),
      );
  }
}

function serveLog(request: ResourceRequest): void {
  const { cluster, namespace = '', name = '', query, res } = request;
  const pod = cluster.store.get('pods', namespace, name);
  if (!pod) throw notFound('pods', name);
  const containers = ((pod.object.spec as { containers?: { name: string }[] } | undefined)?.containers ?? []).map(
    (c) => c.name,
  );
  let container = query.get('container') ?? '';
  if (!container) {
    if (containers.length !== 1) {
      throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`);
    }
    container = containers[0];
  } else if (!containers.includes(container)) {
    throw badRequest(`container ${container} is not valid for pod ${name}`);
  }
  const previous = query.get('previous') === 'true';
  if (previous && !cluster.logs.has(namespace, name, container, true)) {
    throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
  }
  const tail = query.get('tailLines');
  const text = cluster.logs.read(namespace, name, container, {
    previous,
    tailLines: tail === null ? undefined : Number(tail),
  });
  sendText(res, 200, text, 'text/plain');
}

async function serveProxy(request: ResourceRequest): Promise<void> {
  const { cluster, namespace = '', name = '', res, req } = request;
  if (request.verb !== 'get') {
    throw new ApiStatusError(
      failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),
    );
  }
  const target = request.resource === 'services' ? 'services' : 'pods';
  const search = new URL(req.url ?? '/', 'https://sim').search;
  await cluster.proxy.prepare(target, namespace, name);
  const answer = cluster.proxy.handle(target, namespace, name, request.port, `${request.proxyPath ?? '/'}${search}`);
  if (answer) return sendText(res, answer.status, answer.body, answer.contentType);
  if (!cluster.store.get(target, namespace, name)) throw notFound(target, name);
  const message =
    target === 'services'
      ? `no endpoints available for service "${name}"`
      : `error trying to reach service: dial tcp 10.128.0.1:${request.port ?? 80}: connect: connection refused`;
  throw new ApiStatusError(failure(503, 'ServiceUnavailable', message, {}));
}
