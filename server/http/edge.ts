import 'server-only';
import { NextResponse, type NextRequest } from 'next/server';
import { checkRequestUrl } from '@/lib/http/url-check';
import { securityHeaders, type SecurityContext } from '@/lib/http/security-headers';
import { badRequestJson, badRequestPage } from '@/server/http/bad-request';
import { isTls } from '@/server/http/tls';

/** What the edge knows about one request before any route runs. */
export interface EdgeRequest {
  request: NextRequest;
  /** Path and query exactly as sent (percent-escapes untouched, even malformed ones). */
  pathname: string;
  search: string;
  security: SecurityContext;
  /** Headers the steps set for the route (who is asking, once authentication decided), all under EDGE_HEADER_PREFIX. */
  forward: Headers;
}

/**
 * Request headers under this prefix are the edge's to set: whatever a client sent under it is dropped before the
 * route runs, so a route can trust them (the viewer the edge authenticated travels in one).
 */
export const EDGE_HEADER_PREFIX = 'x-update-health-';

/**
 * One step of the edge pipeline: answers the request itself (a rejection, a login redirect) or returns undefined to
 * let the next step, and finally the route, handle it. Every answer still gets the security headers.
 */
export type EdgeStep = (edge: EdgeRequest) => Response | undefined | Promise<Response | undefined>;

/** The request as the edge sees it, with a fresh script nonce. */
export function edgeRequest(request: NextRequest, dev: boolean): EdgeRequest {
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const tls = isTls(request);
  const afterHost = request.url.replace(/^[a-z]+:\/\/[^/]*/i, '');
  const q = afterHost.indexOf('?');
  const [pathname, search] = q < 0 ? [afterHost, ''] : [afterHost.slice(0, q), afterHost.slice(q)];
  return { request, pathname, search, security: { nonce, tls, dev }, forward: new Headers() };
}

/** A URL no route can decode gets 400 here, before Next's router would throw on it: JSON under /api, the error page elsewhere. */
export const rejectUndecodableUrl: EdgeStep = ({ pathname, search, security }) => {
  const problem = checkRequestUrl(pathname, search);
  if (!problem) return undefined;
  return pathname.startsWith('/api/') ? badRequestJson(problem) : badRequestPage(problem, security.nonce);
};

/** Hands the request on to its route, telling the page render the CSP (Next reads the script nonce from it). */
export function forward({ request, security, forward: own }: EdgeRequest, csp: string): Response {
  const headers = new Headers(request.headers);
  for (const name of [...headers.keys()]) if (name.startsWith(EDGE_HEADER_PREFIX)) headers.delete(name);
  for (const [name, value] of own) if (name.startsWith(EDGE_HEADER_PREFIX)) headers.set(name, value);
  headers.set('content-security-policy', csp);
  headers.set('x-nonce', security.nonce);
  return NextResponse.next({ request: { headers } });
}

/** Runs the steps in order; the first answer wins, otherwise the route answers. Every response gets the security headers. */
export async function runEdge(edge: EdgeRequest, steps: readonly EdgeStep[]): Promise<Response> {
  const headers = securityHeaders(edge.security);
  let response: Response | undefined;
  for (const step of steps) {
    response = await step(edge);
    if (response) break;
  }
  response ??= forward(edge, headers['Content-Security-Policy']);
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}
