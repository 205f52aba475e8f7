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

/**
 * The authentication step of the edge: the one place identity enters. With `--auth openshift`, a request without a
 * valid session cookie or bearer token gets 401 JSON (APIs, the stream, /metrics) or a redirect to the login
 * (pages); an authenticated one goes on with its viewer attached for the routes.
 */
export const requireViewer: EdgeStep = async (edge) => {
  const result = await authenticate(edge.request.headers, edge.security.tls);
  const open = isPublicPath(edge.pathname);
  const viewer = result.ok ? result.viewer : undefined;
  if (!open && viewer?.kind === 'user' && viewer.via === 'bearer' && !scopesMayRead(viewer.user)) {
    const scopes = viewer.user.extra?.[SCOPES_EXTRA_KEY]?.join(' ');
    return jsonError(
      403,
      'forbidden',
      `the token's scopes (${scopes}) do not allow reading cluster data; use a token with user:full or a role: scope`,
    );
  }
  if (result.ok && (result.viewer || open)) {
    if (result.viewer) edge.forward.set(VIEWER_HEADER, encodeViewer(result.viewer));
    return undefined;
  }
  if (open) return undefined;
  if (!result.ok && result.status === 429) return tooManyRequests(result.retryAfterSeconds, result.message);
  if (wantsJson(edge.pathname)) {
    const status = result.ok ? 401 : result.status;
    const message = result.ok
      ? 'log in: a session cookie or an `Authorization: Bearer <OpenShift token>` header is required'
      : result.message;
    const response = jsonError(status, status === 401 ? 'unauthorized' : 'auth_unavailable', message);
    if (status === 401) response.headers.set('WWW-Authenticate', 'Bearer realm="update-health"');
    return response;
  }
  const login = new URL('/auth/login', edge.request.url);
  login.searchParams.set('then', `${edge.pathname}${edge.search}`);
  return NextResponse.redirect(login, 302);
};
