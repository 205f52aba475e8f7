/** The login callback and logout routes' logic against the embedded OpenShift OAuth server. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeBase64Json } from '@/server/http/base64-json';
import { EMBEDDED_OAUTH_CLIENT_ID } from '@/server/simulator/api-server';
import { Htpasswd } from '@/server/simulator/access/htpasswd';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { EMBEDDED_AUTH_ENV, fetchFor, reviewerFor } from '@/server/testing/embedded-auth';
import { AuthService } from './auth-service';
import { finishLogin, logout } from './login-flow';
import { OAuthLogin, type PendingLogin } from './oauth-login';
import { SessionSealer } from './session-sealer';
import { SqliteSessionRepository } from './sqlite-session-repository';

const ATTACKER = '<script>alert(1)</script>attacker-text';

describe('login callback and logout', () => {
  let t: TestServer;
  let fetchTls: typeof fetch;
  let dir: string;
  let sessions: SqliteSessionRepository;
  let auth: AuthService;
  const holder = globalThis as unknown as { __updateHealthAuth?: AuthService };

  const callback = (query: string, pending?: PendingLogin) =>
    finishLogin(
      new Request(`http://localhost/auth/callback?${query}`, {
        headers: pending ? { Cookie: `uh_login=${encodeBase64Json(pending)}` } : {},
      }),
    );

  /** Logs `dev` in at the OAuth server's form, as a browser would; the callback query it is sent back with. */
  const codeFromOAuthServer = async (location: string): Promise<string> => {
    const authorize = new URL(location);
    const toLogin = await fetchTls(authorize);
    const form = await fetchTls(new URL(toLogin.headers.get('location')!, t.served.url));
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())![1];
    const csrfCookie = form.headers.get('set-cookie')!.split(';')[0];
    const then = authorize.pathname + authorize.search;
    const posted = await fetchTls(new URL('/login', t.served.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: csrfCookie },
      body: new URLSearchParams({ then, csrf, username: 'dev', password: 'dev-pw' }).toString(),
    });
    const cookies = posted.headers
      .get('set-cookie')!
      .split(',')
      .map((cookie) => cookie.trim());
    const session = cookies.find((cookie) => cookie.startsWith('ssn='))!.split(';')[0];
    const back = await fetchTls(authorize, { headers: { Cookie: session } });
    return new URL(back.headers.get('location')!).search.slice(1);
  };

  beforeAll(async () => {
    const users = Htpasswd.of({ dev: 'dev-pw' });
    t = await startTestServer({ users: () => users });
    fetchTls = fetchFor(t);
    dir = mkdtempSync(join(tmpdir(), 'login-flow-'));
    sessions = new SqliteSessionRepository(join(dir, 'incidents.sqlite'));
    const review = reviewerFor(t);
    const env = { ...EMBEDDED_AUTH_ENV, UPDATE_HEALTH_OAUTH_CLIENT_ID: EMBEDDED_OAUTH_CLIENT_ID };
    auth = new AuthService(
      env,
      () => sessions,
      () => 'sim',
      (_id, path, body) => review(path, body),
      Date.now,
      {
        sealer: new SessionSealer(Buffer.alloc(32, 3)),
        login: new OAuthLogin({
          apiServer: t.served.url,
          clientId: EMBEDDED_OAUTH_CLIENT_ID,
          clientSecret: () => t.served.tokens.reader,
          fetch: fetchTls,
        }),
      },
    );
    holder.__updateHealthAuth = auth;
  });
  afterAll(async () => {
    delete holder.__updateHealthAuth;
    await sessions?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  it('answers a forged state, an error and a reused code with 4xx in its words, logging no caller text', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { location, pending } = await auth.beginLogin('http://localhost/auth/callback', '/');
    const query = await codeFromOAuthServer(location);

    const forged = await callback(`code=abc&state=${encodeURIComponent(ATTACKER)}`, pending);
    const denied = await callback(
      `error=access_denied&error_description=${encodeURIComponent(ATTACKER)}&state=${pending.state}`,
      pending,
    );
    const first = await callback(query, pending);
    expect(first.status).toBe(302);
    expect(first.headers.get('set-cookie')).toMatch(/uh_session=[\w-]{43}/);
    const reused = await callback(query, pending);
    for (const answer of [forged, denied, reused]) {
      expect(answer.status).toBe(400);
      const page = await answer.text();
      expect(page).not.toContain('attacker-text');
      expect(page).not.toContain('alert(1)');
      expect(page).toContain('Log in again');
    }
    expect((await callback(query)).status).toBe(400);
    const logged = warn.mock.calls.map((call) => call.join(' '));
    expect(logged).toEqual([
      'Update Health: login callback failed (refused)',
      'Update Health: login callback failed (refused)',
      'Update Health: login callback failed (exchange_failed)',
    ]);
  });

  it('logs out by deleting the session and its OAuth access token', async () => {
    t.served.oauth.deleteUser('dev');
    const { location, pending } = await auth.beginLogin('http://localhost/auth/callback', '/');
    const done = await callback(await codeFromOAuthServer(location), pending);
    const cookie = /uh_session=([\w-]+)/.exec(done.headers.get('set-cookie') ?? '')![1];
    expect(await auth.viewerForSession(cookie)).toMatchObject({ user: { name: 'dev' } });
    const answer = await logout(
      new Request('http://localhost/auth/logout', {
        method: 'POST',
        headers: { Cookie: `uh_session=${cookie}` },
      }),
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await auth.viewerForSession(cookie)).toBeUndefined();
    // The OAuth server holds no token for dev any more: the browser's next visit logs in afresh.
    expect(t.served.oauth.deleteUser('dev')).toBe(0);
  });
});
