import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogdRolloutScenario } from '../scenarios/catalogd-rollout';
import { runScenario } from '../core';
import { startTestServer, type TestServer } from '../test-harness';
import { EMBEDDED_OAUTH_CLIENT_ID } from '../api-server';
import { Htpasswd } from './htpasswd';
import { accessTokenName, s256 } from './oauth-tokens';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const PASSWORDS = { admin: 'admin-pw', sre: 'sre-pw', dev: 'dev-pw' };

describe('embedded OpenShift access control: OAuth server, reviews and RBAC', () => {
  let t: TestServer;
  let call: (
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: string },
  ) => Promise<Answer>;
  let htpasswdFile: string;

  const challenge = async (user: string, password: string): Promise<Answer> =>
    call(
      'GET',
      `/oauth/authorize?client_id=openshift-challenging-client&response_type=token&redirect_uri=${encodeURIComponent(`${t.served.url}/oauth/token/implicit`)}`,
      {
        headers: {
          Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
          'X-CSRF-Token': '1',
        },
      },
    );
  const tokenOf = (answer: Answer): string => /access_token=([^&]+)/.exec(String(answer.headers.location))![1];
  const loginAs = async (user: keyof typeof PASSWORDS) => tokenOf(await challenge(user, PASSWORDS[user]));
  // Asynchronous: the API server runs in this process.
  const kubectlAs = (token: string, args: string[]) =>
    new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        'kubectl',
        ['--kubeconfig', t.kubeconfigPath('reader'), '--cache-dir', join(t.dir, 'cache'), '--token', token, ...args],
        { encoding: 'utf8', timeout: 20_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
        },
      );
    });
  const review = async (token: string, kind: string, spec: unknown) => {
    const group = kind === 'tokenreviews' ? 'authentication.k8s.io' : 'authorization.k8s.io';
    const answer = await call('POST', `/apis/${group}/v1/${kind}`, {
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ spec }),
    });
    return { status: answer.status, body: JSON.parse(answer.body) as { status: Record<string, unknown> } };
  };

  beforeAll(async () => {
    // The file comes from Apache's htpasswd -B, exactly what OpenShift's HTPasswd provider reads ($2y$ hashes).
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    htpasswdFile = join(mkdtempSync(join(tmpdir(), 'htpasswd-')), 'users.htpasswd');
    writeFileSync(
      htpasswdFile,
      Object.entries(PASSWORDS)
        .map(([user, pw]) => execFileSync('htpasswd', ['-nbB', user, pw], { encoding: 'utf8' }).trim())
        .join('\n'),
    );
    const users = Htpasswd.fromFile(htpasswdFile);
    t = await startTestServer({ users: () => users });
    runScenario(t.cluster, catalogdRolloutScenario);
    const ca = Buffer.from(t.served.caData, 'base64').toString();
    call = (method, path, options = {}) =>
      new Promise((resolve, reject) => {
        const req = request(`${t.served.url}${path}`, { method, headers: options.headers, ca }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', reject);
        req.end(options.body);
      });
  });
  afterAll(async () => t?.close());

  it('reads Apache htpasswd -B files and rejects non-bcrypt entries with the line named', () => {
    expect(Htpasswd.fromFile(htpasswdFile).verify('sre', 'sre-pw')).toBe(true);
    expect(Htpasswd.fromFile(htpasswdFile).verify('sre', 'wrong')).toBe(false);
    expect(() => Htpasswd.parse('sre:{SHA}abc=', 'f')).toThrow(/f:1: user "sre" does not have a bcrypt hash/);
  });

  it('advertises its OAuth server (RFC 8414) without authentication', async () => {
    const answer = await call('GET', '/.well-known/oauth-authorization-server');
    expect(answer.status).toBe(200);
    const metadata = JSON.parse(answer.body) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: t.served.url,
      token_endpoint: `${t.served.url}/oauth/token`,
      code_challenge_methods_supported: expect.arrayContaining(['S256']),
    });
  });

  it('gives the challenging client a token for the right password only, in the Location fragment as oc expects', async () => {
    const none = await call(
      'GET',
      `/oauth/authorize?client_id=openshift-challenging-client&response_type=token&redirect_uri=${encodeURIComponent(`${t.served.url}/oauth/token/implicit`)}`,
    );
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm="openshift"/);
    const wrong = await challenge('sre', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.location).toBeUndefined();
    const ok = await challenge('sre', PASSWORDS.sre);
    expect(ok.status).toBe(302);
    expect(String(ok.headers.location)).toMatch(
      /\/oauth\/token\/implicit#access_token=sha256~[\w-]{43}&expires_in=86400&scope=user%3Afull&token_type=Bearer$/,
    );
  });

  it('authorizes OAuth users by Groups and RBAC, as real kubectl sees it', async () => {
    const sre = await loginAs('sre');
    const dev = await loginAs('dev');
    expect(await kubectlAs(sre, ['get', 'clusterversion', 'version', '-o', 'name'])).toEqual({
      code: 0,
      out: 'clusterversion.config.openshift.io/version\n',
    });
    expect((await kubectlAs(sre, ['auth', 'can-i', 'get', 'clusterversions'])).out.split('\n')[0]).toBe('yes');
    expect((await kubectlAs(sre, ['auth', 'can-i', 'patch', 'clusterversions'])).out.split('\n')[0]).toBe('no');
    const denied = await kubectlAs(dev, ['get', 'clusterversion']);
    expect(denied.code).not.toBe(0);
    expect(denied.out).toContain(
      'clusterversions.config.openshift.io is forbidden: User "dev" cannot list resource "clusterversions" in API group "config.openshift.io" at the cluster scope',
    );
    expect((await kubectlAs(dev, ['get', 'pods', '-n', 'openshift-catalogd', '-o', 'name'])).out).toMatch(
      /^pod\/catalogd-controller-manager-/m,
    );
    expect((await kubectlAs(dev, ['get', 'pods', '-n', 'openshift-cluster-version'])).code).not.toBe(0);
    expect((await kubectlAs('sha256~forged', ['get', 'ns'])).out).toMatch(/Unauthorized|must be logged in/);
    const sim = await call('POST', '/__sim/pause', { headers: { Authorization: `Bearer ${sre}` } });
    expect(sim.status).toBe(403);
  });

  it('answers TokenReview and SubjectAccessReview for the dashboard, with Group membership resolved', async () => {
    const reader = t.served.tokens.reader;
    const sre = await loginAs('sre');
    const tokenReview = await review(reader, 'tokenreviews', { token: sre });
    expect(tokenReview.status).toBe(201);
    expect(tokenReview.body.status).toMatchObject({
      authenticated: true,
      user: { username: 'sre', groups: expect.arrayContaining(['sre', 'system:authenticated']) },
    });
    expect((await review(reader, 'tokenreviews', { token: 'sha256~forged' })).body.status).toMatchObject({
      authenticated: false,
    });
    const sar = async (spec: unknown) => (await review(reader, 'subjectaccessreviews', spec)).body.status.allowed;
    expect(
      await sar({
        user: 'dev',
        groups: ['catalog-team'],
        resourceAttributes: { verb: 'get', group: 'config.openshift.io', resource: 'clusterversions', name: 'version' },
      }),
    ).toBe(false);
    expect(
      await sar({
        user: 'dev',
        groups: ['catalog-team'],
        resourceAttributes: { verb: 'list', group: '', resource: 'pods', namespace: 'openshift-catalogd' },
      }),
    ).toBe(true);
    expect(await sar({ user: 'sre', groups: ['sre'], nonResourceAttributes: { verb: 'get', path: '/metrics' } })).toBe(
      true,
    );
    expect(
      await sar({ user: 'dev', groups: ['catalog-team'], nonResourceAttributes: { verb: 'get', path: '/metrics' } }),
    ).toBe(false);
    // An ordinary user may not ask about others.
    expect(
      (
        await review(sre, 'subjectaccessreviews', {
          user: 'dev',
          resourceAttributes: { verb: 'get', resource: 'pods' },
        })
      ).status,
    ).toBe(403);
  });

  it('runs the authorization-code flow with PKCE through the login form for the dashboard service account', async () => {
    const verifier = 'v'.repeat(50);
    const redirect = 'http://127.0.0.1:3000/auth/callback';
    const authorizePath = `/oauth/authorize?client_id=${encodeURIComponent(EMBEDDED_OAUTH_CLIENT_ID)}&response_type=code&scope=${encodeURIComponent('user:info user:check-access')}&redirect_uri=${encodeURIComponent(redirect)}&state=s1&code_challenge=${s256(verifier)}&code_challenge_method=S256`;
    const first = await call('GET', authorizePath);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(`/login?then=${encodeURIComponent(authorizePath)}`);
    const form = await call('GET', String(first.headers.location));
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.body)![1];
    const csrfCookie = String((form.headers['set-cookie'] as string[])[0]).split(';')[0];
    const post = (password: string) =>
      call('POST', '/login', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: csrfCookie },
        body: new URLSearchParams({ then: authorizePath, csrf, username: 'dev', password }).toString(),
      });
    const wrong = await post('nope');
    expect(wrong.body).toContain('Invalid login or password');
    expect(wrong.headers['set-cookie']?.toString()).not.toContain('ssn=');
    const loggedIn = await post(PASSWORDS.dev);
    expect(loggedIn.status).toBe(302);
    const session = String((loggedIn.headers['set-cookie'] as string[]).find((c) => c.startsWith('ssn=')))!.split(
      ';',
    )[0];
    const withCode = await call('GET', String(loggedIn.headers.location), { headers: { Cookie: session } });
    const back = new URL(String(withCode.headers.location));
    expect(back.origin + back.pathname).toBe(redirect);
    expect(back.searchParams.get('state')).toBe('s1');
    const exchange = (codeVerifier: string) =>
      call('POST', '/oauth/token', {
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: back.searchParams.get('code')!,
          redirect_uri: redirect,
          code_verifier: codeVerifier,
          client_id: EMBEDDED_OAUTH_CLIENT_ID,
          client_secret: t.served.tokens.reader,
        }).toString(),
      });
    expect((await exchange('w'.repeat(50))).status).toBe(400);
    // The code was used up by the failed attempt: a stolen code cannot be retried.
    expect((await exchange(verifier)).status).toBe(400);
    const again = new URL(
      String((await call('GET', String(loggedIn.headers.location), { headers: { Cookie: session } })).headers.location),
    );
    back.searchParams.set('code', again.searchParams.get('code')!);
    const granted = await exchange(verifier);
    expect(granted.status).toBe(200);
    const body = JSON.parse(granted.body) as { access_token: string; scope: string; expires_in: number };
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'user:info user:check-access', expires_in: 86400 });
    // A scoped token says who the user is, and nothing more: it cannot read cluster data itself.
    const me = await call('GET', '/apis/user.openshift.io/v1/users/~', {
      headers: { Authorization: `Bearer ${body.access_token}` },
    });
    expect(JSON.parse(me.body)).toMatchObject({ kind: 'User', metadata: { name: 'dev' }, groups: ['catalog-team'] });
    expect(
      (
        await call('GET', '/api/v1/namespaces/openshift-catalogd/pods', {
          headers: { Authorization: `Bearer ${body.access_token}` },
        })
      ).status,
    ).toBe(403);
  });

  const curlLike = (user: keyof typeof PASSWORDS, query: string) =>
    call('GET', `/oauth/authorize?client_id=openshift-challenging-client&response_type=token${query}`, {
      headers: {
        Authorization: `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString('base64')}`,
        'X-CSRF-Token': '1',
      },
    });
  const scoped = async (user: keyof typeof PASSWORDS, scope: string) =>
    tokenOf(await curlLike(user, `&scope=${encodeURIComponent(scope)}`));

  it("lets oc's challenging client leave out redirect_uri: its one registered URI is used, as in osin", async () => {
    // What `curl -u sre:pw -H 'X-CSRF-Token: 1' '<oauth>/oauth/authorize?client_id=…&response_type=token'` sends.
    const answer = await curlLike('sre', '');
    expect(answer.status).toBe(302);
    const implicit = `${t.served.url}/oauth/token/implicit`;
    expect(String(answer.headers.location)).toMatch(new RegExp(`^${implicit}#access_token=sha256~[\\w-]{43}&`));
    expect((await curlLike('sre', `&redirect_uri=${encodeURIComponent('https://evil.example/')}`)).status).toBe(400);
  });

  it('holds an OAuth token to its scopes, on direct requests and in SubjectAccessReviews that carry them', async () => {
    const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });
    const info = await scoped('admin', 'user:info');
    expect((await call('GET', '/apis/config.openshift.io/v1/clusterversions/version', bearer(info))).status).toBe(403);
    expect((await call('GET', '/apis/user.openshift.io/v1/users/~', bearer(info))).status).toBe(200);
    expect((await call('GET', '/apis', bearer(info))).status).toBe(200);
    const check = await scoped('admin', 'user:check-access');
    expect((await call('GET', '/api/v1/namespaces/openshift-catalogd/pods', bearer(check))).status).toBe(403);
    const clusterVersionPath = '/apis/config.openshift.io/v1/clusterversions/version';
    expect((await call('GET', clusterVersionPath, bearer(await scoped('admin', 'user:full')))).status).toBe(200);
    const view = await scoped('admin', 'role:view:openshift-catalogd');
    expect((await call('GET', '/api/v1/namespaces/openshift-catalogd/pods', bearer(view))).status).toBe(200);
    expect((await call('GET', '/api/v1/namespaces/openshift-cluster-version/pods', bearer(view))).status).toBe(403);
    expect((await call('GET', '/apis/config.openshift.io/v1/clusterversions/version', bearer(view))).status).toBe(403);
    const everywhere = await scoped('admin', 'role:view:*');
    const cvoPods = '/api/v1/namespaces/openshift-cluster-version/pods';
    expect((await call('GET', cvoPods, bearer(everywhere))).status).toBe(200);
    // The scope narrows, never widens: dev's role:view:* still stops where dev's RBAC does.
    expect((await call('GET', cvoPods, bearer(await scoped('dev', 'role:view:*')))).status).toBe(403);

    const reader = t.served.tokens.reader;
    const tokenReview = await review(reader, 'tokenreviews', { token: info });
    const SCOPES = 'scopes.authorization.openshift.io';
    expect(tokenReview.body.status).toMatchObject({ user: { username: 'admin', extra: { [SCOPES]: ['user:info'] } } });
    const sar = async (scopes: string[] | undefined, resourceAttributes: Record<string, string>) => {
      const extra = scopes ? { extra: { [SCOPES]: scopes } } : {};
      const spec = { user: 'admin', groups: ['system:authenticated'], ...extra, resourceAttributes };
      return (await review(reader, 'subjectaccessreviews', spec)).body.status;
    };
    const clusterVersion = { verb: 'get', group: 'config.openshift.io', resource: 'clusterversions', name: 'version' };
    expect(await sar(undefined, clusterVersion)).toMatchObject({ allowed: true });
    expect(await sar(['user:info', 'user:check-access'], clusterVersion)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('scopes [user:info user:check-access] prevent this action'),
    });
    expect((await sar(['user:full'], clusterVersion)).allowed).toBe(true);
    const secrets = { verb: 'get', group: '', resource: 'secrets', namespace: 'openshift-catalogd' };
    expect((await sar(['role:cluster-admin:openshift-catalogd'], secrets)).allowed).toBe(false);
    expect((await sar(['role:cluster-admin:openshift-catalogd:!'], secrets)).allowed).toBe(true);
  });

  it('deletes an OAuth access token by its sha256~ name (logout), after which it no longer reviews', async () => {
    const token = await loginAs('dev');
    const reader = t.served.tokens.reader;
    expect((await review(reader, 'tokenreviews', { token })).body.status).toMatchObject({ authenticated: true });
    const path = `/apis/oauth.openshift.io/v1/oauthaccesstokens/${accessTokenName(token)}`;
    expect(accessTokenName(token)).toMatch(/^sha256~[\w-]{43}$/);
    // A scoped token may not delete even itself; an unscoped caller (the user, a service account) may.
    const limited = await scoped('dev', 'user:info');
    const deleteAs = (token: string, name: string) =>
      call('DELETE', `/apis/oauth.openshift.io/v1/oauthaccesstokens/${name}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
    expect((await deleteAs(limited, accessTokenName(limited))).status).toBe(403);
    expect((await call('DELETE', path, { headers: { Authorization: `Bearer ${reader}` } })).status).toBe(200);
    expect((await review(reader, 'tokenreviews', { token })).body.status).toMatchObject({ authenticated: false });
    expect((await call('DELETE', path, { headers: { Authorization: `Bearer ${reader}` } })).status).toBe(404);
    const own = await loginAs('dev');
    expect((await deleteAs(own, accessTokenName(own))).status).toBe(200);
    const podsPath = '/api/v1/namespaces/openshift-catalogd/pods';
    const pods = await call('GET', podsPath, { headers: { Authorization: `Bearer ${own}` } });
    expect(pods.status).toBe(401);
  });

  // Last: it spends this address's password budget.
  it('throttles password guessing with 429 and Retry-After, before checking the password', async () => {
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push(await challenge('admin', `guess-${i}`));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(answers[0].status).toBe(401);
    expect(limited.length).toBeGreaterThanOrEqual(15);
    expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The right password does not get through while the user is throttled either.
    expect((await challenge('admin', PASSWORDS.admin)).status).toBe(429);
  });
});
