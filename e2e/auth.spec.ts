import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpsRequest } from 'node:https';
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * `npm start -- --auth openshift`: the embedded clusters' OAuth server logs people in (HTPasswd users from a file
 * written by Apache's htpasswd -B), the dashboard authenticates every request and shows each user what their RBAC
 * on each cluster allows: `sre` (cluster-reader everywhere) everything, `dev` (view in openshift-catalogd of
 * catalogd-rollout only) that namespace's findings.
 */
const PORT = 3171;
const PASSWORDS = { sre: 'sre-password', dev: 'dev-password', admin: 'admin-password' };
const ALL = [
  'steady',
  'update-in-progress',
  'cross-minor-rollback',
  'hypershift-featuregate-drop',
  'catalogd-rollout',
  'high-density-drain',
  'extension-install-flap',
  'hypershift-management',
];

let server: EmbeddedServer;
let dir: string;
let authServer: { url: string; ca: string };

test.describe.configure({ mode: 'serial' });
test.use({ ignoreHTTPSErrors: true });

/** A token the way `oc login -u` gets one: the challenging client, Basic credentials and X-CSRF-Token. */
function ocLogin(user: string, password: string): Promise<{ status: number; token?: string }> {
  const url = new URL('/oauth/authorize', authServer.url);
  url.search = new URLSearchParams({
    client_id: 'openshift-challenging-client',
    response_type: 'token',
    redirect_uri: `${authServer.url}/oauth/token/implicit`,
  }).toString();
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        ca: authServer.ca,
        headers: {
          Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
          'X-CSRF-Token': '1',
        },
      },
      (res) => {
        res.resume();
        const token = /access_token=([^&]+)/.exec(res.headers.location ?? '')?.[1];
        resolve({ status: res.statusCode ?? 0, token });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function tokenOf(user: keyof typeof PASSWORDS): Promise<string> {
  const { token } = await ocLogin(user, PASSWORDS[user]);
  if (!token) throw new Error(`no token for ${user}`);
  return token;
}

/** Reads the SSE stream for a few seconds and returns its `data:` payloads. */
async function streamFor(token: string, query: string, ms = 4_000): Promise<string[]> {
  const controller = new AbortController();
  const response = await fetch(`${server.baseURL}/api/stream${query}`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  let text = '';
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      text += Buffer.from(chunk).toString('utf8');
  } catch {
    // aborted after `ms`
  } finally {
    clearTimeout(timer);
  }
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6));
}

async function logInThroughForm(page: Page, path: string, user: keyof typeof PASSWORDS): Promise<void> {
  await page.goto(`${server.baseURL}${path}`);
  // The embedded OAuth server's HTPasswd login form, on the cluster's own origin.
  await expect(page).toHaveURL(new RegExp(`^${authServer.url.replace(/[.]/g, '\\.')}/login`));
  await page.getByLabel('Username').fill(user);
  await page.getByLabel('Password').fill(PASSWORDS[user]);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${server.baseURL}${path}`);
  await expect(page.getByTestId('user-menu')).toContainText(user);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = mkdtempSync(join(tmpdir(), 'uh-auth-'));
  const file = join(dir, 'users.htpasswd');
  writeFileSync(
    file,
    Object.entries(PASSWORDS)
      .map(([user, password]) => execFileSync('htpasswd', ['-nbB', user, password], { encoding: 'utf8' }).trim())
      .join('\n'),
  );
  server = await startEmbeddedServer({
    port: PORT,
    scenarios: ALL,
    speed: 10,
    dataDir: join(dir, 'data'),
    args: ['--auth', 'openshift', '--htpasswd', file],
    readyPath: '/readyz',
  });
  // The auth cluster is the first context; its API server advertises the OAuth server.
  const kubeconfig = load(readFileSync(join(dir, 'data', `embedded-${PORT}`, 'kubeconfig.yaml'), 'utf8')) as {
    clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  };
  const first = kubeconfig.clusters[0].cluster;
  authServer = { url: first.server, ca: Buffer.from(first['certificate-authority-data'], 'base64').toString() };
  await advanceMinutes(server, 'cross-minor-rollback', 16);
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('without credentials every API, the stream, incidents and /metrics answer 401; probes stay public; pages go to the login', async ({
  request,
}) => {
  for (const path of [
    '/api/clusters',
    '/api/clusters/steady/health',
    '/api/stream?clusters=steady',
    '/api/incidents',
    '/metrics',
  ]) {
    const response = await request.get(`${server.baseURL}${path}`);
    expect(response.status(), path).toBe(401);
    expect((await response.json()).error.code, path).toBe('unauthorized');
  }
  expect((await request.get(`${server.baseURL}/healthz`)).status()).toBe(200);
  expect((await request.get(`${server.baseURL}/readyz`)).status()).toBe(200);
  const page = await request.get(`${server.baseURL}/clusters/steady`, { maxRedirects: 0 });
  expect(page.status()).toBe(302);
  expect(page.headers().location).toBe(`/auth/login?then=%2Fclusters%2Fsteady`);
  const auth = await (await request.get(`${server.baseURL}/api/auth`)).json();
  expect(auth).toEqual({ mode: 'openshift', issuer: authServer.url });
  const forged = await request.get(`${server.baseURL}/api/clusters`, {
    headers: { Authorization: 'Bearer sha256~forgedforgedforgedforgedforgedforgedforged1' },
  });
  expect(forged.status()).toBe(401);
  // A client cannot claim an identity by sending the header the edge uses internally.
  const claimed = await request.get(`${server.baseURL}/api/clusters`, {
    headers: { 'x-update-health-viewer': Buffer.from(JSON.stringify({ kind: 'local' })).toString('base64url') },
  });
  expect(claimed.status()).toBe(401);
  expect(await ocLogin('sre', 'not-the-password')).toEqual({ status: 401, token: undefined });
});

test('a Bearer sre token sees the whole fleet and the status-write-rejection finding; dev sees less, and no ClusterVersion data anywhere', async ({
  request,
}) => {
  const sre = { Authorization: `Bearer ${await tokenOf('sre')}` };
  const dev = { Authorization: `Bearer ${await tokenOf('dev')}` };
  const sreRows = (await (await request.get(`${server.baseURL}/api/clusters`, { headers: sre })).json()).clusters as {
    id: string;
    version: string | null;
  }[];
  expect(sreRows.length).toBeGreaterThanOrEqual(7);
  await expect
    .poll(
      async () => {
        const health = await (
          await request.get(`${server.baseURL}/api/clusters/cross-minor-rollback/health`, { headers: sre })
        ).json();
        return (health.findings as { detector: string }[]).some((f) => f.detector === 'status-write-rejection');
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  expect((await request.get(`${server.baseURL}/metrics`, { headers: sre })).status()).toBe(200);

  const devRows = (await (await request.get(`${server.baseURL}/api/clusters`, { headers: dev })).json()).clusters as {
    id: string;
    version: string | null;
  }[];
  expect(devRows.map((row) => row.id)).toEqual(['catalogd-rollout']);
  expect(devRows[0].version).toBeNull();
  expect(
    (await request.get(`${server.baseURL}/api/clusters/cross-minor-rollback/health`, { headers: dev })).status(),
  ).toBe(404);
  expect((await request.get(`${server.baseURL}/metrics`, { headers: dev })).status()).toBe(403);
  const health = await (
    await request.get(`${server.baseURL}/api/clusters/catalogd-rollout/health`, { headers: dev })
  ).json();
  expect(health.findings.length).toBeGreaterThan(0);
  expect(health.access).toMatchObject({
    clusterVersion: false,
    missing: expect.arrayContaining(['get clusterversions.config.openshift.io']),
  });
  // Derived views are withheld as data, with the access they lack worded by kind (never naming an object).
  expect(health.updateProgress).toBeNull();
  expect(health.access.hiddenViews.updateProgress).toEqual(expect.arrayContaining(['list nodes']));
  expect(health.access.missing.join(' ')).not.toContain('"');
  expect(
    (
      await request.get(`${server.baseURL}/api/clusters/catalogd-rollout/rollback-plan?to=4.18.11`, { headers: dev })
    ).status(),
  ).toBe(403);
  // A cluster dev may not see answers exactly like one that does not exist, on the stream too.
  const hiddenStream = await request.get(`${server.baseURL}/api/stream?clusters=cross-minor-rollback`, {
    headers: dev,
  });
  const unknownStream = await request.get(`${server.baseURL}/api/stream?clusters=no-such-cluster`, { headers: dev });
  expect([hiddenStream.status(), unknownStream.status()]).toEqual([404, 404]);
  expect((await hiddenStream.text()).replace('cross-minor-rollback', 'no-such-cluster')).toBe(
    await unknownStream.text(),
  );
  expect(JSON.stringify(health)).not.toMatch(/ClusterVersion|status-write-rejection/);
  const series = await (
    await request.get(`${server.baseURL}/api/clusters/catalogd-rollout/series`, { headers: dev })
  ).json();
  expect(JSON.stringify(series)).not.toContain('ClusterVersion');

  // The stream: dev asks for everything and gets only what RBAC allows.
  const devEvents = await streamFor(dev.Authorization.slice(7), '');
  expect(devEvents.length).toBeGreaterThan(0);
  for (const event of devEvents) {
    const message = JSON.parse(event) as { clusterId: string };
    expect(message.clusterId).toBe('catalogd-rollout');
    expect(event).not.toMatch(/ClusterVersion|status-write-rejection/);
  }
  const sreEvents = await streamFor(sre.Authorization.slice(7), '?clusters=cross-minor-rollback');
  expect(sreEvents.some((event) => event.includes('status-write-rejection'))).toBe(true);

  // Incidents: made by sre (recorded as such), read by dev through the same filter.
  const created = await request.post(`${server.baseURL}/api/incidents`, {
    headers: sre,
    data: { clusterId: 'catalogd-rollout' },
  });
  expect(created.status()).toBe(201);
  const { id } = await created.json();
  const asSre = await (await request.get(`${server.baseURL}/api/incidents/${id}`, { headers: sre })).json();
  expect(asSre.createdBy).toBe('sre');
  expect(JSON.stringify(asSre)).toContain('4.18.12');
  const asDev = await (await request.get(`${server.baseURL}/api/incidents/${id}`, { headers: dev })).json();
  expect(asDev.createdBy).toBe('sre');
  expect(asDev.health.findings.length).toBeGreaterThan(0);
  expect(asDev.cluster).toMatchObject({ clusterID: null, version: null, desiredVersion: null });
  expect(JSON.stringify(asDev)).not.toMatch(/ClusterVersion|status-write-rejection/);
  // Cluster-wide metrics (pod-setup latency from every node's ovnkube) stay with cluster-wide readers.
  expect(Object.keys(asDev.series.samples)).not.toContain('pod-setup-latency');
  expect(Object.keys(asSre.series.samples)).toContain('pod-setup-latency');
  const rollbackIncident = await request.post(`${server.baseURL}/api/incidents`, {
    headers: sre,
    data: { clusterId: 'cross-minor-rollback' },
  });
  const hidden = await request.get(`${server.baseURL}/api/incidents/${(await rollbackIncident.json()).id}`, {
    headers: dev,
  });
  expect(hidden.status()).toBe(404);
});

test("sre logs in through the OAuth server's form and sees every cluster", async ({ page, fleet }) => {
  await logInThroughForm(page, '/', 'sre');
  await expect(fleet.rows.first()).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => fleet.rows.count()).toBeGreaterThanOrEqual(7);
});

test.describe('a cluster hidden from the user', () => {
  // The page asks for the hidden cluster's health and series; the browser itself logs their 404.
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('dev logs in and sees only catalogd-rollout, with its namespace findings and what is hidden', async ({
    page,
    fleet,
  }) => {
    await logInThroughForm(page, '/clusters/catalogd-rollout', 'dev');
    await expect(page.getByTestId('finding').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('hidden-findings')).toContainText('get clusterversions.config.openshift.io');
    await expect(page.getByTestId('hidden-view').first()).toContainText('Update progress not shown');
    await expect(page.locator('[data-testid="finding"][data-detector="status-write-rejection"]')).toHaveCount(0);
    await page.goto(`${server.baseURL}/clusters/cross-minor-rollback`);
    await expect(page.getByTestId('cluster-error')).toContainText(
      'No cluster with id “cross-minor-rollback” is watched, or you may not see it.',
    );
    await page.goto(`${server.baseURL}/`);
    await expect(fleet.rows.first()).toBeVisible({ timeout: 30_000 });
    expect(await fleet.rowIds()).toEqual(['catalogd-rollout']);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { name: 'Logged out' })).toBeVisible();
    expect((await page.request.get(`${server.baseURL}/api/clusters`)).status()).toBe(401);
  });
});
