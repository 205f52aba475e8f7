import 'server-only';
import type { NextRequest } from 'next/server';
import type { z } from 'zod';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { getFleet, type FleetMember } from '@/server/engine/fleet';
import { parseJsonBody } from '@/server/http/bounded-body';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';
import type { Viewer } from './identity';
import { unauthenticated, viewerOf } from './viewer';
import { healthFor } from './visibility';

/** A fleet member the viewer may see, with its health as they may see it. */
export interface VisibleCluster {
  member: FleetMember;
  health: ClusterHealthDto;
}

/** What a route takes from its request; each part is validated with its zod schema before the handler runs. */
export interface RouteSpec {
  /** Path parameters; a value that does not parse names nothing, so it answers 404 with `notFound`. */
  params?: z.ZodType;
  query?: z.ZodType;
  /** A JSON body of at most `maxBodyBytes` (default 16 KiB); requests with a body are refused when sent cross-site. */
  body?: z.ZodType;
  maxBodyBytes?: number;
  /** What 404 says: a path parameter that does not parse, a hidden or unknown cluster, a handler's `undefined`. */
  notFound?: (params: Record<string, string>) => string;
  /** Expected failures the handler throws, as responses (checked by name: the classes may come from another bundle). */
  failures?: (error: unknown) => Response | undefined;
  /** Status of a successful JSON answer (default 200). */
  status?: number;
}

type Refusal = Promise<string | undefined> | string | undefined;

/** A viewer route may refuse a viewer with 403 and the message `refuse` returns. */
export interface ViewerRouteSpec {
  refuse?: (input: { viewer: Viewer }) => Refusal;
}

/** A cluster route names the cluster it is about (by default the `id` path parameter) and may refuse it to a viewer. */
export interface ClusterRouteSpec<S extends RouteSpec> {
  cluster?: (input: RouteInput<S>) => string;
  refuse?: (input: { viewer: Viewer; cluster: VisibleCluster }) => Refusal;
}

type Parsed<S, K extends string> = S extends { [key in K]: infer T }
  ? T extends z.ZodType
    ? z.infer<T>
    : never
  : undefined;

/** What a handler receives: the viewer the edge authenticated and the validated parts of the request. */
export interface RouteInput<S extends RouteSpec> {
  request: NextRequest;
  viewer: Viewer;
  params: Parsed<S, 'params'>;
  query: Parsed<S, 'query'>;
  body: Parsed<S, 'body'>;
}

/** A JSON answer (sent with `status`), a ready response, or undefined for "not found". */
type Answer = Response | object | undefined;

type RouteContext = { params: Promise<Record<string, string>> };

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function notFound(spec: RouteSpec, params: Record<string, string>): Response {
  return jsonError(404, 'not_found', spec.notFound?.(params) ?? 'not found');
}

/** Checks the request in order (origin, viewer, path, query, body); a response when one part is refused. */
async function parse<S extends RouteSpec>(
  spec: S,
  request: NextRequest,
  context: RouteContext | undefined,
): Promise<{ ok: true; input: RouteInput<S>; raw: Record<string, string> } | { ok: false; response: Response }> {
  if (methodsWithBody.has(request.method)) {
    const refused = rejectCrossSite(request);
    if (refused) return { ok: false, response: refused };
  }
  const viewer = viewerOf(request);
  if (!viewer) return { ok: false, response: unauthenticated() };
  const raw = (await context?.params) ?? {};
  let params: unknown = undefined;
  if (spec.params) {
    const parsed = spec.params.safeParse(raw);
    if (!parsed.success) return { ok: false, response: notFound(spec, raw) };
    params = parsed.data;
  }
  let query: unknown = undefined;
  if (spec.query) {
    const parsed = parseQuery(spec.query, request.nextUrl.searchParams);
    if (!parsed.ok) return parsed;
    query = parsed.data;
  }
  let body: unknown = undefined;
  if (spec.body) {
    const parsed = await parseJsonBody(request, spec.body, spec.maxBodyBytes ?? 16 * 1024);
    if (!parsed.ok) return parsed;
    body = parsed.data;
  }
  return { ok: true, input: { request, viewer, params, query, body } as RouteInput<S>, raw };
}

async function answer(spec: RouteSpec, raw: Record<string, string>, run: () => Promise<Answer>): Promise<Response> {
  let result: Answer;
  try {
    result = await run();
  } catch (error) {
    const expected = spec.failures?.(error);
    if (expected) return expected;
    throw error;
  }
  if (result === undefined) return notFound(spec, raw);
  return result instanceof Response ? result : jsonOk(result, spec.status);
}

/**
 * A route handler for an authenticated viewer: times the route under its pattern, refuses cross-site writes,
 * answers 401 without a viewer, validates path, query and body, then calls `handler` with them. Hidden and missing
 * things answer alike: the handler returns undefined for both.
 */
export function viewerRoute<S extends RouteSpec>(
  pattern: string,
  spec: S & ViewerRouteSpec,
  handler: (input: RouteInput<S>) => Answer | Promise<Answer>,
) {
  return timedRoute(pattern, async (request: NextRequest, context?: RouteContext) => {
    const parsed = await parse(spec, request, context);
    if (!parsed.ok) return parsed.response;
    const { input, raw } = parsed;
    const refusal = await spec.refuse?.({ viewer: input.viewer });
    if (refusal) return jsonError(403, 'forbidden', refusal);
    return answer(spec, raw, async () => handler(input));
  });
}

/** "no cluster named …", for a hidden cluster exactly as for one that does not exist. */
export function noCluster(id: string): string {
  return `no cluster named "${id}"`;
}

/**
 * A route about one fleet cluster (the `id` path parameter unless `spec.cluster` names another): as
 * {@link viewerRoute}, and the cluster is resolved through the visibility filter, so a cluster the viewer may not
 * see answers 404 exactly like one that does not exist.
 */
export function clusterRoute<S extends RouteSpec>(
  pattern: string,
  spec: S & ClusterRouteSpec<S>,
  handler: (input: RouteInput<S> & { cluster: VisibleCluster }) => Answer | Promise<Answer>,
) {
  const checked: S = { notFound: (params: Record<string, string>) => noCluster(params.id ?? ''), ...spec };
  return timedRoute(pattern, async (request: NextRequest, context?: RouteContext) => {
    const parsed = await parse(checked, request, context);
    if (!parsed.ok) return parsed.response;
    const { input, raw } = parsed;
    const id = spec.cluster ? spec.cluster(input) : (raw.id ?? '');
    const member = getFleet().get(id);
    const health = member && (await healthFor(input.viewer, member));
    if (!member || !health) return jsonError(404, 'not_found', noCluster(id));
    const cluster = { member, health };
    const refusal = await spec.refuse?.({ viewer: input.viewer, cluster });
    if (refusal) return jsonError(403, 'forbidden', refusal);
    return answer(checked, raw, async () => handler({ ...input, cluster }));
  });
}
