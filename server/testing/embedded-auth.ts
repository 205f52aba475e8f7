/** Test support for the dashboard's auth against an embedded API server (its OAuth server and review APIs). */
import { tlsFetch } from '@/server/auth/tls-fetch';
import type { AuthEnv } from '@/server/env';
import type { TestServer } from '@/server/simulator/test-harness';

/** Auth settings as the embedded fleet runs with them (the OAuth client pieces are given to AuthService directly). */
export const EMBEDDED_AUTH_ENV: AuthEnv = {
  UPDATE_HEALTH_AUTH: 'openshift',
  UPDATE_HEALTH_OAUTH_CLIENT_ID: 'unused',
  UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE: 'unused',
  UPDATE_HEALTH_SESSION_MAX_AGE_SECONDS: 43_200,
  UPDATE_HEALTH_SESSION_REVIEW_SECONDS: 240,
  UPDATE_HEALTH_EMBEDDED: '1',
};

/** A `fetch` trusting the test server's CA. */
export function fetchFor(t: TestServer): typeof fetch {
  return tlsFetch(Buffer.from(t.served.caData, 'base64').toString());
}

/** POSTs a review as the dashboard's service account (`reader`), as the fleet's `review` does. */
export function reviewerFor(t: TestServer): (path: string, body: unknown) => Promise<unknown> {
  const fetchTls = fetchFor(t);
  return async (path, body) => {
    const answer = await fetchTls(`${t.served.url}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { Authorization: `Bearer ${t.served.tokens.reader}`, 'Content-Type': 'application/json' },
    });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    return answer.json();
  };
}

/** A token the way `oc login -u` gets one: the challenging client, no redirect_uri, optionally scoped. */
export async function ocToken(t: TestServer, user: string, password: string, scope?: string): Promise<string> {
  const url = new URL('/oauth/authorize', t.served.url);
  url.search = new URLSearchParams({
    client_id: 'openshift-challenging-client',
    response_type: 'token',
    ...(scope ? { scope } : {}),
  }).toString();
  const answer = await fetchFor(t)(url, {
    headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, 'X-CSRF-Token': '1' },
  });
  const token = /access_token=([^&]+)/.exec(answer.headers.get('location') ?? '')?.[1];
  if (answer.status !== 302 || !token) throw new Error(`no token for ${user}: HTTP ${answer.status}`);
  return token;
}
