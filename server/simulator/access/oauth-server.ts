/**
 * OpenShift's OAuth server, as far as clients see it: RFC 8414 metadata, `/oauth/authorize` (authorization code
 * with PKCE for browser clients through the HTPasswd login form; the implicit `openshift-challenging-client` flow
 * `oc login` uses, Basic credentials plus `X-CSRF-Token`), `/oauth/token` and the `/login` form.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RateLimiter } from '@/server/http/rate-limit';
import { readBody, sendJson, sendText } from '../http-util';
import type { Htpasswd } from './htpasswd';
import { loginPage } from './login-page';
import { s256, type OAuthTokenStore } from './oauth-tokens';

/** A registered OAuth client (an OAuthClient object, or a service account acting as one). */
export interface OAuthClient {
  id: string;
  /** Client secret; undefined for a public client. */
  secret?: string;
  /** Whether a redirect URI is registered for this client. */
  redirectAllowed(uri: string): boolean;
  /** The client's single registered redirect URI, used when a request names none (as OpenShift's osin server does). */
  registeredRedirect?: string;
  /** Scopes the client may request; undefined for any. */
  allowedScopes?: readonly string[];
  /** The challenging client answers Basic credentials with 401 challenges instead of a login page. */
  challenge?: boolean;
}

/** What the OAuth endpoints need from their API server. */
export interface OAuthContext {
  issuer: string;
  tokens: OAuthTokenStore;
  users: () => Htpasswd;
  client(id: string): OAuthClient | undefined;
  /** Password attempts (see passwordAttempt); shared by the login form and the challenging client. */
  attempts: PasswordAttempts;
}

/**
 * Throttles password guessing: every password attempt is charged to its user name and to the caller's address (a
 * burst of 10, then one a second per user and two per address); over either, the answer is 429 with Retry-After
 * before the password is checked. Simpler than OpenShift's, which slows failed logins down; the effect on a guesser
 * (about a second per guess) is alike.
 */
export class PasswordAttempts {
  private readonly perUser: RateLimiter;
  private readonly perAddress: RateLimiter;

  constructor(now: () => number = Date.now) {
    this.perUser = new RateLimiter({ capacity: 10, refillPerSecond: 1, maxKeys: 10_000 }, now);
    this.perAddress = new RateLimiter({ capacity: 20, refillPerSecond: 2, maxKeys: 10_000 }, now);
  }

  /** Charges one attempt; the seconds to wait when over the limit, else undefined. */
  take(user: string, address: string | undefined): number | undefined {
    const byAddress = this.perAddress.take(address ?? 'unknown');
    const byUser = this.perUser.take(user);
    if (!byAddress.ok) return byAddress.retryAfterSeconds;
    return byUser.ok ? undefined : byUser.retryAfterSeconds;
  }
}

/** The paths the OAuth server answers without a bearer token. */
export function isOAuthPath(pathname: string): boolean {
  return (
    pathname === '/.well-known/oauth-authorization-server' || pathname.startsWith('/oauth/') || pathname === '/login'
  );
}

const LOGIN_COOKIE = 'ssn';
const CSRF_COOKIE = 'csrf';

function cookies(req: IncomingMessage): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) map.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return map;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(302, { Location: location, 'Cache-Control': 'no-store', ...headers });
  res.end();
}

function oauthError(
  res: ServerResponse,
  code: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, code, { error, error_description: description }, { 'Cache-Control': 'no-store', ...headers });
}

/** The metadata document at `/.well-known/oauth-authorization-server` (as openshift-apiserver serves it). */
export function oauthMetadata(issuer: string): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    scopes_supported: [
      'user:check-access',
      'user:full',
      'user:info',
      'user:list-projects',
      'user:list-scoped-projects',
    ],
    response_types_supported: ['code', 'token'],
    grant_types_supported: ['authorization_code', 'implicit'],
    code_challenge_methods_supported: ['plain', 'S256'],
  };
}

function requestedScopes(client: OAuthClient, scope: string | null): string[] | undefined {
  const scopes = (scope ?? '').split(' ').filter(Boolean);
  if (scopes.length === 0) return client.allowedScopes ? undefined : ['user:full'];
  if (client.allowedScopes && scopes.some((s) => !client.allowedScopes!.includes(s))) return undefined;
  return scopes;
}

function basicCredentials(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function authorize(req: IncomingMessage, res: ServerResponse, url: URL, ctx: OAuthContext): void {
  const query = url.searchParams;
  const client = ctx.client(query.get('client_id') ?? '');
  const redirectUri = query.get('redirect_uri') || client?.registeredRedirect || '';
  if (!client || !client.redirectAllowed(redirectUri)) {
    return oauthError(res, 400, 'invalid_request', 'The client is not registered or the redirect_uri does not match.');
  }
  const back = new URL(redirectUri);
  const state = query.get('state');
  const fail = (error: string, description: string) => {
    back.searchParams.set('error', error);
    back.searchParams.set('error_description', description);
    if (state) back.searchParams.set('state', state);
    redirect(res, back.toString());
  };
  const scopes = requestedScopes(client, query.get('scope'));
  if (!scopes) return fail('invalid_scope', `client ${client.id} may not request scope "${query.get('scope') ?? ''}"`);
  const responseType = query.get('response_type');

  if (client.challenge) {
    const credentials = basicCredentials(req.headers.authorization);
    const wait =
      credentials && req.headers['x-csrf-token']
        ? ctx.attempts.take(credentials.user, req.socket.remoteAddress)
        : undefined;
    if (wait !== undefined) {
      res.writeHead(429, { 'Retry-After': String(wait), 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      res.end('Too many login attempts; try again later');
      return;
    }
    if (!credentials || !req.headers['x-csrf-token'] || !ctx.users().verify(credentials.user, credentials.password)) {
      res.writeHead(401, {
        'WWW-Authenticate': 'Basic realm="openshift"',
        'Content-Type': 'text/plain',
        'Cache-Control': 'no-store',
      });
      res.end(
        credentials
          ? 'Unauthorized: login failed'
          : 'A non-empty X-CSRF-Token header and Basic credentials are required',
      );
      return;
    }
    if (responseType !== 'token')
      return fail('unsupported_response_type', 'the challenging client uses response_type=token');
    const { token, expiresIn } = ctx.tokens.issueToken({ user: credentials.user, scopes, clientId: client.id });
    // oc reads the token from the fragment, with `~` left as is (as OpenShift's osin server writes it).
    const fragment = `access_token=${token}&expires_in=${expiresIn}&scope=${encodeURIComponent(scopes.join(' '))}&token_type=Bearer`;
    return redirect(res, `${back.toString().replace(/#.*$/, '')}#${fragment}`);
  }

  if (responseType !== 'code') return fail('unsupported_response_type', 'browser clients use response_type=code');
  const challengeMethod = query.get('code_challenge_method') ?? undefined;
  if (challengeMethod && challengeMethod !== 'S256' && challengeMethod !== 'plain')
    return fail('invalid_request', 'unsupported code_challenge_method');
  const user = ctx.tokens.loginUser(cookies(req).get(LOGIN_COOKIE));
  if (!user) return redirect(res, `/login?then=${encodeURIComponent(url.pathname + url.search)}`);
  const code = ctx.tokens.issueCode({
    user,
    scopes,
    clientId: client.id,
    redirectUri,
    codeChallenge: query.get('code_challenge') ?? undefined,
    codeChallengeMethod: challengeMethod,
  });
  back.searchParams.set('code', code);
  if (state) back.searchParams.set('state', state);
  redirect(res, back.toString());
}

function clientOf(req: IncomingMessage, form: URLSearchParams, ctx: OAuthContext): OAuthClient | undefined {
  const basic = basicCredentials(req.headers.authorization);
  const id = basic ? decodeURIComponent(basic.user) : (form.get('client_id') ?? '');
  const secret = basic ? decodeURIComponent(basic.password) : (form.get('client_secret') ?? '');
  const client = ctx.client(id);
  if (!client) return undefined;
  if (client.secret !== undefined && !same(client.secret, secret)) return undefined;
  return client;
}

async function token(req: IncomingMessage, res: ServerResponse, ctx: OAuthContext): Promise<void> {
  if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'use POST');
  const form = new URLSearchParams(await readBody(req));
  const client = clientOf(req, form, ctx);
  if (!client) return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
  if (form.get('grant_type') !== 'authorization_code')
    return oauthError(res, 400, 'unsupported_grant_type', 'only authorization_code is supported');
  const grant = ctx.tokens.takeCode(form.get('code') ?? '');
  if (!grant || grant.clientId !== client.id || grant.redirectUri !== form.get('redirect_uri')) {
    return oauthError(
      res,
      400,
      'invalid_grant',
      'The authorization code is invalid, expired, or was issued to another client.',
    );
  }
  if (grant.codeChallenge) {
    const verifier = form.get('code_verifier') ?? '';
    const expected = grant.codeChallengeMethod === 'S256' ? s256(verifier) : verifier;
    if (!verifier || !same(expected, grant.codeChallenge))
      return oauthError(res, 400, 'invalid_grant', 'code_verifier does not match the code_challenge');
  }
  const { token: accessToken, expiresIn } = ctx.tokens.issueToken({
    user: grant.user,
    scopes: grant.scopes,
    clientId: client.id,
  });
  sendJson(
    res,
    200,
    { access_token: accessToken, token_type: 'Bearer', expires_in: expiresIn, scope: grant.scopes.join(' ') },
    { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
  );
}

function safeThen(then: string | null): string {
  return then && then.startsWith('/oauth/authorize?') ? then : '/';
}

async function login(req: IncomingMessage, res: ServerResponse, url: URL, ctx: OAuthContext): Promise<void> {
  const html = (code: number, body: string, headers: Record<string, string | string[]> = {}) =>
    sendText(res, code, body, 'text/html; charset=utf-8', {
      'Cache-Control': 'no-store',
      'X-Frame-Options': 'DENY',
      ...(headers as Record<string, string>),
    });
  const csrfCookie = (value: string) => `${CSRF_COOKIE}=${value}; Path=/; HttpOnly; Secure; SameSite=Strict`;
  if (req.method === 'GET') {
    const csrf = randomBytes(24).toString('base64url');
    return html(200, loginPage({ then: safeThen(url.searchParams.get('then')), csrf }), {
      'Set-Cookie': csrfCookie(csrf),
    });
  }
  if (req.method !== 'POST') return html(405, 'method not allowed');
  const form = new URLSearchParams(await readBody(req));
  const then = safeThen(form.get('then'));
  const expected = cookies(req).get(CSRF_COOKIE);
  const csrf = randomBytes(24).toString('base64url');
  if (!expected || !same(expected, form.get('csrf') ?? '')) {
    return html(403, loginPage({ then, csrf, error: 'Your login session expired. Please try again.' }), {
      'Set-Cookie': csrfCookie(csrf),
    });
  }
  const user = form.get('username') ?? '';
  const wait = ctx.attempts.take(user, req.socket.remoteAddress);
  if (wait !== undefined) {
    const error = `Too many login attempts. Try again in ${wait} seconds.`;
    return html(429, loginPage({ then, csrf, username: user, error }), {
      'Set-Cookie': csrfCookie(csrf),
      'Retry-After': String(wait),
    });
  }
  if (!ctx.users().verify(user, form.get('password') ?? '')) {
    return html(200, loginPage({ then, csrf, username: user, error: 'Invalid login or password. Please try again.' }), {
      'Set-Cookie': csrfCookie(csrf),
    });
  }
  const session = ctx.tokens.startLogin(user);
  redirect(res, then, {
    'Set-Cookie': [
      `${LOGIN_COOKIE}=${session}; Path=/; HttpOnly; Secure; SameSite=Lax`,
      `${CSRF_COOKIE}=; Path=/; Max-Age=0`,
    ],
  });
}

/** Answers an OAuth path (see isOAuthPath). */
export async function handleOAuth(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: OAuthContext,
): Promise<void> {
  if (url.pathname === '/.well-known/oauth-authorization-server') return sendJson(res, 200, oauthMetadata(ctx.issuer));
  if (url.pathname === '/oauth/authorize') return authorize(req, res, url, ctx);
  if (url.pathname === '/oauth/token') return token(req, res, ctx);
  if (url.pathname === '/oauth/token/implicit') return sendText(res, 200, 'You have been logged in.', 'text/plain');
  if (url.pathname === '/login') return login(req, res, url, ctx);
  oauthError(res, 404, 'invalid_request', 'not found');
}
