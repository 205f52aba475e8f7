/** The TokenReview cache and its limits, against the embedded API server's real TokenReview. */
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeRequest, runEdge } from '@/server/http/edge';
import { Htpasswd } from '@/server/simulator/access/htpasswd';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { EMBEDDED_AUTH_ENV, ocToken, reviewerFor } from '@/server/testing/embedded-auth';
import { AuthService } from './auth-service';
import { requireViewer } from './edge-auth';
import { TokenReviewer } from './token-reviewer';

const PASSWORDS = { admin: 'admin-pw', sre: 'sre-pw', dev: 'dev-pw' };

describe('TokenReview cache and limits', () => {
  let t: TestServer;
  let tokens: Record<keyof typeof PASSWORDS, string>;
  let posted: string[];
  let review: (path: string, body: unknown) => Promise<unknown>;
  const post = (path: string, body: unknown) => {
    posted.push((body as { spec: { token: string } }).spec.token);
    return review(path, body);
  };
  const tokenFor = (user: keyof typeof PASSWORDS, scope?: string) => ocToken(t, user, PASSWORDS[user], scope);

  beforeAll(async () => {
    const users = Htpasswd.of(PASSWORDS);
    t = await startTestServer({ users: () => users });
    review = reviewerFor(t);
    tokens = { admin: await tokenFor('admin'), sre: await tokenFor('sre'), dev: await tokenFor('dev') };
  });
  afterAll(async () => t?.close());

  it('stays bounded by evicting the least recently used entry, and rejected tokens evict no valid one', async () => {
    posted = [];
    let now = 0;
    const generous = { capacity: 1_000, refillPerSecond: 1_000 };
    const reviewer = new TokenReviewer(post, () => now, { maxEntries: 2, perClient: generous });
    expect(await reviewer.review(tokens.admin)).toMatchObject({ name: 'admin' });
    expect(await reviewer.review(tokens.sre)).toMatchObject({ name: 'sre' });
    await reviewer.review(tokens.admin);
    expect(posted).toHaveLength(2);
    await reviewer.review(tokens.dev);
    expect(reviewer.size.valid).toBe(2);
    await reviewer.review(tokens.admin);
    expect(posted).toHaveLength(3);
    await reviewer.review(tokens.sre);
    expect(posted).toHaveLength(4);
    for (let i = 0; i < 50; i += 1) {
      expect(await reviewer.review(`sha256~unknown-${i}`, { client: '10.0.0.1' })).toBeUndefined();
    }
    expect(reviewer.size).toEqual({ valid: 2, invalid: 2 });
    // The two most recently used (admin, then sre) are still there after the flood.
    posted = [];
    await reviewer.review(tokens.admin);
    await reviewer.review(tokens.sre);
    expect(posted).toEqual([]);
    // A rejected token is remembered too: asking again within its lifetime costs no review.
    await reviewer.review('sha256~unknown-49');
    expect(posted).toEqual([]);
    now += 60_001;
    await reviewer.review(tokens.sre);
    expect(posted).toEqual([tokens.sre]);
  });

  it('answers 429 with Retry-After to a client trying many unknown tokens, not to others or known ones', async () => {
    posted = [];
    const auth = new AuthService(
      EMBEDDED_AUTH_ENV,
      () => {
        throw new Error('no sessions here');
      },
      () => 'sim',
      (_id, path, body) => post(path, body),
      () => 0,
    );
    const holder = globalThis as unknown as { __updateHealthAuth?: AuthService };
    holder.__updateHealthAuth = auth;
    const call = async (token: string, from: string) => {
      const headers = { Authorization: `Bearer ${token}`, 'X-Forwarded-For': from };
      const request = new NextRequest('http://localhost/api/clusters', { headers });
      return runEdge(edgeRequest(request, false), [requireViewer]);
    };
    expect((await call(tokens.sre, '10.0.0.9')).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) statuses.push((await call(`sha256~guess-${i}`, '198.51.100.7')).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    expect(posted.filter((token) => token.startsWith('sha256~guess-'))).toHaveLength(20);
    const limited = await call('sha256~guess-more', '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await call(tokens.sre, '198.51.100.7')).status).toBe(200);
    expect((await call('sha256~other-client', '203.0.113.5')).status).toBe(401);
    // A token that may only say who its user is reads nothing here, as on the API server: 403 with the reason.
    const refused = await call(await tokenFor('admin', 'user:info'), '10.0.0.9');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { code: 'forbidden', message: expect.stringContaining('(user:info)') },
    });
    expect((await call(await tokenFor('admin', 'role:view:*'), '10.0.0.9')).status).toBe(200);
    delete holder.__updateHealthAuth;
  });
});
