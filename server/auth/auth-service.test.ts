/**
 * The dashboard's sessions, scopes and token reviews against the embedded OpenShift API server (its OAuth server,
 * TokenReview, SubjectAccessReview and RBAC run for real); only the dashboard's clock is driven by the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLUSTER_VERSION_ACCESS, type AccessCheck } from '@/lib/access/access-check';
import type { AuthEnv } from '@/server/env';
import { Htpasswd } from '@/server/simulator/access/htpasswd';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { EMBEDDED_AUTH_ENV, fetchFor, ocToken, reviewerFor } from '@/server/testing/embedded-auth';
import { AuthService } from './auth-service';
import { OAuthLogin } from './oauth-login';
import { SessionSealer } from './session-sealer';
import { SqliteSessionRepository } from './sqlite-session-repository';

const PASSWORDS = { admin: 'admin-pw', sre: 'sre-pw', dev: 'dev-pw' };
const CATALOGD_PODS: AccessCheck = { verb: 'list', group: '', resource: 'pods', namespace: 'openshift-catalogd' };
const SCOPES = 'scopes.authorization.openshift.io';

describe('auth service against the embedded OpenShift API server', () => {
  let t: TestServer;
  let dir: string;
  let sessions: SqliteSessionRepository;
  let now: number;

  const newService = (env: Partial<AuthEnv> = {}) => {
    const review = reviewerFor(t);
    const post = (_id: string, path: string, body: unknown) => review(path, body);
    return new AuthService(
      { ...EMBEDDED_AUTH_ENV, ...env },
      () => sessions,
      () => 'sim',
      post,
      () => now,
      {
        sealer: new SessionSealer(Buffer.alloc(32, 7)),
        login: new OAuthLogin({
          apiServer: t.served.url,
          clientId: 'unused',
          clientSecret: () => t.served.tokens.reader,
          fetch: fetchFor(t),
        }),
      },
    );
  };
  const tokenFor = (user: keyof typeof PASSWORDS, scope?: string) => ocToken(t, user, PASSWORDS[user], scope);
  const setGroupMembers = (group: string, users: string[]) => {
    const client = t.cluster.as('admin');
    client.update('groups', { ...client.get('groups', group)!, users } as never);
  };

  beforeAll(async () => {
    const users = Htpasswd.of(PASSWORDS);
    t = await startTestServer({ users: () => users });
    dir = mkdtempSync(join(tmpdir(), 'auth-service-'));
    sessions = new SqliteSessionRepository(join(dir, 'incidents.sqlite'));
  });
  afterAll(async () => {
    await sessions?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    now = Date.parse('2026-11-25T10:00:00Z');
    setGroupMembers('sre', ['sre']);
  });

  it('holds a bearer token to its scopes: user:info reads nothing, user:full and role:view:<ns> read', async () => {
    const auth = newService();
    const viewerOf = async (scope: string) => (await auth.viewerForToken(await tokenFor('admin', scope), 'client-a'))!;
    const info = await viewerOf('user:info');
    expect(info).toMatchObject({ kind: 'user', user: { name: 'admin', extra: { [SCOPES]: ['user:info'] } } });
    const infoAnswers = await auth.answersOn('sim', info, [CLUSTER_VERSION_ACCESS, CATALOGD_PODS]);
    expect([infoAnswers(CLUSTER_VERSION_ACCESS), infoAnswers(CATALOGD_PODS)]).toEqual([false, false]);
    expect(await auth.mayGetPath(info, '/metrics')).toBe(false);
    const full = await auth.answersOn('sim', await viewerOf('user:full'), [CLUSTER_VERSION_ACCESS]);
    expect(full(CLUSTER_VERSION_ACCESS)).toBe(true);
    const viewer = await viewerOf('role:view:openshift-catalogd');
    const view = await auth.answersOn('sim', viewer, [CLUSTER_VERSION_ACCESS, CATALOGD_PODS]);
    expect([view(CLUSTER_VERSION_ACCESS), view(CATALOGD_PODS)]).toEqual([false, true]);
  });

  it("a session sees what its user may, and loses a group's access within the review interval", async () => {
    const auth = newService();
    const { cookieValue, user } = await auth.startSession(await tokenFor('sre', 'user:info user:check-access'), 86_400);
    expect(user.groups).toContain('sre');
    const viewer = (await auth.viewerForSession(cookieValue))!;
    expect((await auth.answersOn('sim', viewer, [CLUSTER_VERSION_ACCESS]))(CLUSTER_VERSION_ACCESS)).toBe(true);
    setGroupMembers('sre', []);
    now += 239_000;
    const before = await auth.viewerForSession(cookieValue);
    expect(before).toMatchObject({ user: { groups: expect.arrayContaining(['sre']) } });
    now += 1_000;
    const later = (await auth.viewerForSession(cookieValue))!;
    expect(later.kind === 'user' && later.user.groups).not.toContain('sre');
    expect((await auth.answersOn('sim', later, [CLUSTER_VERSION_ACCESS]))(CLUSTER_VERSION_ACCESS)).toBe(false);
    // The change is in the database: another replica reading the session sees the new groups too.
    expect(await newService().viewerForSession(cookieValue)).toMatchObject({
      user: { name: 'sre', groups: expect.not.arrayContaining(['sre']) },
    });
  });

  it('a session ends at the next review once its token or its user is deleted, and at its maximum age', async () => {
    const auth = newService({ UPDATE_HEALTH_SESSION_MAX_AGE_SECONDS: 3_600 });
    const token = await tokenFor('dev', 'user:info user:check-access');
    const byToken = await auth.startSession(token, 86_400);
    expect(byToken.maxAgeSeconds).toBe(3_600);
    const byUser = await auth.startSession(await tokenFor('dev'), 86_400);
    const aged = await auth.startSession(await tokenFor('admin'), 86_400);
    t.served.oauth.revoke(token);
    expect(await auth.viewerForSession(byToken.cookieValue)).toBeDefined();
    now += 240_000;
    expect(await auth.viewerForSession(byToken.cookieValue)).toBeUndefined();
    expect(await auth.viewerForSession(byUser.cookieValue)).toBeDefined();
    t.served.oauth.deleteUser('dev');
    now += 240_000;
    expect(await auth.viewerForSession(byUser.cookieValue)).toBeUndefined();
    expect(await auth.viewerForSession(aged.cookieValue)).toBeDefined();
    now = Date.parse('2026-11-25T11:00:00Z');
    expect(await auth.viewerForSession(aged.cookieValue)).toBeUndefined();
  });

  it("keeps the session's token sealed at rest, and logout deletes it on the cluster", async () => {
    const auth = newService();
    const token = await tokenFor('sre', 'user:info user:check-access');
    const { cookieValue } = await auth.startSession(token, 86_400);
    const raw = new Database(join(dir, 'incidents.sqlite'), { readonly: true });
    const rows = raw.prepare('SELECT sealed_token FROM sessions').all() as { sealed_token: string }[];
    raw.close();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.sealed_token.includes(token.slice(7, 20)))).toBe(false);
    expect(await auth.logout(cookieValue)).toEqual({ tokenDeleted: true });
    expect(await auth.viewerForSession(cookieValue)).toBeUndefined();
    expect(await newService().viewerForToken(token)).toBeUndefined();
  });
});
