import 'server-only';
import { NextResponse } from 'next/server';
import { jsonError, tooManyRequests } from '@/server/http/responses';
import type { EdgeStep } from '@/server/http/edge';
import { getAuthService } from './auth-service';
import { SCOPES_EXTRA_KEY, type UserIdentity, type Viewer } from './identity';
import { sessionCookieName, readCookie } from './session-cookie';
import { isAuthError } from './token-reviewer';
import { VIEWER_HEADER, encodeViewer } from './viewer-header';

/** Paths anyone may open: probes, the login itself, static assets, and `/api/auth` (which says how to log in). */
export function isPublicPath(pathname: string): boolean {
  return (
    pathname === '/healthz' ||
    pathname === '/readyz' ||
    pathname === '/api/auth' ||
    pathname.startsWith('/auth/') ||
    pathname.startsWith('/_next/') ||
    pathname === '/favicon.ico' ||
    pathname === '/icon.svg'
  );
}

/** Everything a machine reads answers 401 JSON; a page a person opens redirects to the login. */
function wantsJson(pathname: string): boolean {
  return pathname.startsWith('/api/') || pathname === '/metrics';
}

/**
 * Whether a token's scopes could let it read anything: none (a service account, an unscoped token), `user:full` or a
 * `role:` scope. A `user:info` / `user:check-access` / `user:list-projects` token cannot, here as on the API server.
 */
export function scopesMayRead(user: UserIdentity): boolean {
  const scopes = user.extra?.[SCOPES_EXTRA_KEY];
  return scopes === undefined || scopes.some((scope) => scope === 'user:full' || scope.startsWith('role:'));
}

type Authentication =
  | { ok: true; viewer: Viewer | undefined }
  | { ok: false; status: 401 | 503; message: string }
  | { ok: false; status: 429; message: string; retryAfterSeconds: number };

/**
 * The caller's address, for per-client limits: the last `X-Forwarded-For` entry, which is the address the nearest
 * proxy saw (the OpenShift router appends it; `next start` adds the socket's when no proxy did). A client that
 * forges the header only spreads itself over more keys, which the overall limit still bounds.
 */
export function clientAddress(headers: Headers): string {
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return forwarded.at(-1) ?? 'unknown';
}

async function authenticate(headers: Headers, tls: boolean): Promise<Authentication> {
  const auth = getAuthService();
  if (auth.mode === 'none') return { ok: true, viewer: { kind: 'local' } };
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '')?.[1];
  const session = readCookie(headers.get('cookie'), sessionCookieName(tls));
  try {
    if (bearer) {
      const viewer = await auth.viewerForToken(bearer, clientAddress(headers));
      return viewer
        ? { ok: true, viewer }
        : { ok: false, status: 401, message: 'the bearer token is not valid on the cluster' };
    }
    if (session) {
      const viewer = await auth.viewerForSession(session);
      return viewer ? { ok: true, viewer } : { ok: false, status: 401, message: 'the session has ended; log in again' };
    }
  } catch (error) {
    if (isAuthError(error, 'AuthUnavailableError')) return { ok: false, status: 503, message: error.message };
    if (isAuthError(error, 'ReviewRateLimitedError')) {
      return { ok: false, status: 429, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  }
  return { ok: true, viewer: undefined };
}

const LOGIN_MESSAGE = 'log in: a session cookie or an `Authorization: Bearer <OpenShift token>` header is required';

/** Who an API caller is, or the JSON refusal they get (401 no or bad credentials, 403 scopes, 429, 503). */
export type ApiCaller =
  | { ok: true; viewer: Viewer }
  | { ok: false; status: 401 | 403 | 429 | 503; code: string; message: string; retryAfterSeconds?: number };

/**
 * Authenticates a caller of a protected path from its headers: the decision every protected request goes through,
 * whether the edge (proxy.ts) or the upload guard (server/offline/upload-guard.ts, before a body is read) asks.
 */
export async function authenticateApiCaller(headers: Headers, tls: boolean): Promise<ApiCaller> {
  const result = await authenticate(headers, tls);
  if (result.ok && result.viewer) {
    const viewer = result.viewer;
    if (viewer.kind === 'user' && viewer.via === 'bearer' && !scopesMayRead(viewer.user)) {
      const scopes = viewer.user.extra?.[SCOPES_EXTRA_KEY]?.join(' ');
      const message = `the token's scopes (${scopes}) do not allow reading cluster data; use a token with user:full or a role: scope`;
      return { ok: false, status: 403, code: 'forbidden', message };
    }
    return { ok: true, viewer };
  }
  if (!result.ok && result.status === 429) {
    const { message, retryAfterSeconds } = result;
    return { ok: false, status: 429, code: 'too_many_requests', message, retryAfterSeconds };
  }
  if (result.ok) return { ok: false, status: 401, code: 'unauthorized', message: LOGIN_MESSAGE };
  return {
    ok: false,
    status: result.status,
    code: result.status === 401 ? 'unauthorized' : 'auth_unavailable',
    message: result.message,
  };
}

/** The JSON answer for a refused API caller, with `WWW-Authenticate` on 401 and `Retry-After` on 429. */
export function refusedCallerResponse(caller: Extract<ApiCaller, { ok: false }>): Response {
  if (caller.status === 429) return tooManyRequests(caller.retryAfterSeconds ?? 1, caller.message);
  const response = jsonError(caller.status, caller.code, caller.message);
  if (caller.status === 401) response.headers.set('WWW-Authenticate', 'Bearer realm="update-health"');
  return response;
}

/**
 * The authentication step of the edge: the one place identity enters. With `--auth openshift`, a request without a
 * valid session cookie or bearer token gets 401 JSON (APIs, the stream, /metrics) or a redirect to the login
 * (pages); an authenticated one goes on with its viewer attached for the routes.
 */
export const requireViewer: EdgeStep = async (edge) => {
  const { headers } = edge.request;
  if (isPublicPath(edge.pathname)) {
    const result = await authenticate(headers, edge.security.tls);
    if (result.ok && result.viewer) edge.forward.set(VIEWER_HEADER, encodeViewer(result.viewer));
    return undefined;
  }
  const caller = await authenticateApiCaller(headers, edge.security.tls);
  if (caller.ok) {
    edge.forward.set(VIEWER_HEADER, encodeViewer(caller.viewer));
    return undefined;
  }
  if (caller.status === 403 || caller.status === 429 || wantsJson(edge.pathname)) return refusedCallerResponse(caller);
  const login = new URL('/auth/login', edge.request.url);
  login.searchParams.set('then', `${edge.pathname}${edge.search}`);
  return NextResponse.redirect(login, 302);
};
