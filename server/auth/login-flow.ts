import 'server-only';
import { z } from 'zod';
import { decodeBase64Json, encodeBase64Json } from '@/server/http/base64-json';
import { isTls } from '@/server/http/tls';
import { escapeHtml, simplePage } from '@/server/http/simple-page';
import { getAuthService } from './auth-service';
import { isLoginError, type LoginFailure, type PendingLogin } from './oauth-login';
import { loginCookieName, readCookie, sessionCookieName, setCookie } from './session-cookie';

const pendingSchema = z.object({ state: z.string().min(1), verifier: z.string().min(43), then: z.string() });
const LOGIN_COOKIE_SECONDS = 600;

/** The dashboard's external origin: UPDATE_HEALTH_PUBLIC_URL, else what the browser addressed (Host, forwarded proto). */
function publicOrigin(request: Request): string {
  const configured = getAuthService().env.UPDATE_HEALTH_PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? url.host;
  return `${isTls(request) ? 'https' : 'http'}://${host}`;
}

function redirectUri(request: Request): string {
  return `${publicOrigin(request)}/auth/callback`;
}

/** Only a path of this dashboard: never an absolute or protocol-relative URL (no open redirect). */
export function safeThen(then: string | null | undefined): string {
  return then && then.startsWith('/') && !then.startsWith('//') && !then.startsWith('/\\') ? then : '/';
}

function page(request: Request, title: string, body: string, status: number, headers?: HeadersInit): Response {
  return simplePage({ title, body, status, headers, nonce: request.headers.get('x-nonce') ?? '' });
}

/** `GET /auth/login?then=/path`: to the OAuth server's authorize endpoint, remembering state and verifier. */
export async function startLogin(request: Request): Promise<Response> {
  const auth = getAuthService();
  if (auth.mode !== 'openshift') return Response.redirect(new URL('/', publicOrigin(request)), 302);
  const then = safeThen(new URL(request.url).searchParams.get('then'));
  try {
    const { location, pending } = await auth.beginLogin(redirectUri(request), then);
    const cookie = setCookie(
      loginCookieName(isTls(request)),
      encodeBase64Json(pending),
      LOGIN_COOKIE_SECONDS,
      isTls(request),
    );
    return new Response(null, {
      status: 302,
      headers: { Location: location, 'Set-Cookie': cookie, 'Cache-Control': 'no-store' },
    });
  } catch (error) {
    return page(
      request,
      'Login unavailable',
      `<p>The cluster's OAuth server cannot be reached: ${escapeHtml((error as Error).message)}</p><p><a href="/auth/login?then=${encodeURIComponent(then)}">Try again</a></p>`,
      503,
    );
  }
}

function pendingOf(request: Request): PendingLogin | undefined {
  return decodeBase64Json(readCookie(request.headers.get('cookie'), loginCookieName(isTls(request))), pendingSchema);
}

/** What the callback page says for each failure: our words only, never the OAuth server's or the caller's text. */
const CALLBACK_FAILURES: Record<LoginFailure, { status: number; title: string; text: string }> = {
  refused: {
    status: 400,
    title: 'Login refused',
    text:
      'The OAuth server did not grant this login: it was denied or cancelled, or the answer does not belong ' +
      'to the login this browser started.',
  },
  exchange_failed: {
    status: 400,
    title: 'Login failed',
    text: "The login's one-time code was not accepted (it was used already or has expired).",
  },
  not_authenticated: {
    status: 403,
    title: 'Login failed',
    text: 'The cluster does not accept the token its OAuth server issued for this login.',
  },
  unavailable: {
    status: 503,
    title: 'Login unavailable',
    text: "The cluster's OAuth server cannot be reached right now.",
  },
};

/**
 * `GET /auth/callback?code&state`: the code for a token, the token for a user, a session cookie for the browser.
 * A failure answers 4xx (503 when the cluster cannot be asked) with a page in our words, and logs one line naming the
 * kind of failure only: the query is the caller's text.
 */
export async function finishLogin(request: Request): Promise<Response> {
  const tls = isTls(request);
  const clearLogin = setCookie(loginCookieName(tls), '', 0, tls);
  const pending = pendingOf(request);
  const retry = `<p><a href="/auth/login">Log in again</a></p>`;
  if (!pending)
    return page(
      request,
      'Login expired',
      `<p>This login was started too long ago or in another browser.</p>${retry}`,
      400,
      { 'Set-Cookie': clearLogin },
    );
  try {
    const { cookieValue, maxAgeSeconds } = await getAuthService().finishLogin(
      new URL(request.url),
      pending,
      redirectUri(request),
    );
    const headers = new Headers({
      Location: new URL(safeThen(pending.then), publicOrigin(request)).toString(),
      'Cache-Control': 'no-store',
    });
    headers.append('Set-Cookie', clearLogin);
    headers.append('Set-Cookie', setCookie(sessionCookieName(tls), cookieValue, maxAgeSeconds, tls));
    return new Response(null, { status: 302, headers });
  } catch (error) {
    const failure: LoginFailure = isLoginError(error) ? error.failure : 'unavailable';
    // The kind of failure only; a configuration error (our text, e.g. a missing session key) is worth its message.
    const name = error instanceof Error ? error.name : typeof error;
    const detail = isLoginError(error) ? '' : name === 'EnvError' ? `: ${(error as Error).message}` : `: ${name}`;
    console.warn(`Update Health: login callback failed (${failure}${detail})`);
    const { status, title, text } = CALLBACK_FAILURES[failure];
    return page(request, title, `<p>${text}</p>${retry}`, status, { 'Set-Cookie': clearLogin });
  }
}

/**
 * `POST /auth/logout`: ends the session on every replica (it is deleted from the database), deletes its OAuth access
 * token on the cluster, and drops the cookie.
 */
export async function logout(request: Request): Promise<Response> {
  const tls = isTls(request);
  const value = readCookie(request.headers.get('cookie'), sessionCookieName(tls));
  if (value) await getAuthService().logout(value);
  return new Response(null, {
    status: 204,
    headers: { 'Set-Cookie': setCookie(sessionCookieName(tls), '', 0, tls), 'Cache-Control': 'no-store' },
  });
}

/** `GET /auth/logged-out`: where the browser lands after logging out. */
export function loggedOutPage(request: Request): Response {
  return page(
    request,
    'Logged out',
    '<p>Your session has ended.</p><p><a href="/auth/login">Log in again</a></p>',
    200,
  );
}
