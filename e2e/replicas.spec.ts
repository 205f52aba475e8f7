import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { startPostgres, type PostgresServer } from '@/server/testing/postgres-server';
import { expect, test } from './fixtures';

/**
 * Two dashboard replicas on one PostgreSQL database, behind OpenShift login against the embedded clusters: a session
 * made on one is valid on the other, an incident made on one opens on the other, and logging out on one ends the
 * session on both.
 */
const PORTS = [3181, 3182] as const;
const PASSWORD = 'sre-password';

let postgres: PostgresServer | undefined;
let dir = '';
const children: ChildProcess[] = [];

test.describe.configure({ mode: 'serial' });
test.use({ ignoreHTTPSErrors: true });

function spawnLogged(
  command: string,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  children.push(child);
  return { child, output: () => output };
}

async function waitFor(what: string, ok: () => Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await ok().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what} not ready: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dir = mkdtempSync(join(tmpdir(), 'uh-replicas-'));
  postgres = await startPostgres();
  const htpasswd = join(dir, 'users.htpasswd');
  writeFileSync(htpasswd, execFileSync('htpasswd', ['-nbB', 'sre', PASSWORD], { encoding: 'utf8' }));
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  const sim = spawnLogged(
    process.execPath,
    [
      '--conditions=react-server',
      '--import',
      'tsx',
      'server/cli/sim.ts',
      '--scenario',
      'steady,catalogd-rollout',
      '--kubeconfig',
      kubeconfig,
      '--htpasswd',
      htpasswd,
    ],
    {},
  );
  await waitFor('simulator', async () => sim.output().includes('simulator ready'), sim.output);
  // The embedded OAuth client is the clusters' reader service account; its token is the client secret.
  const config = load(readFileSync(kubeconfig, 'utf8')) as { users: { user: { token: string } }[] };
  const secret = join(dir, 'oauth-client-secret');
  writeFileSync(secret, config.users[0].user.token);
  // Replicas share the key that seals the OAuth tokens kept in sessions, as a deployment must.
  const sessionKey = join(dir, 'session.key');
  writeFileSync(sessionKey, randomBytes(32).toString('base64'), { mode: 0o600 });
  for (const port of PORTS) {
    const replica = spawnLogged(
      join('node_modules', '.bin', 'next'),
      ['start', '-H', '127.0.0.1', '-p', String(port)],
      {
        UPDATE_HEALTH_KUBECONFIG: kubeconfig,
        UPDATE_HEALTH_EMBEDDED: '1',
        UPDATE_HEALTH_DATA_DIR: join(dir, `data-${port}`),
        UPDATE_HEALTH_DATABASE_URL: postgres.url,
        UPDATE_HEALTH_AUTH: 'openshift',
        UPDATE_HEALTH_OAUTH_CLIENT_ID: 'system:serviceaccount:openshift-update-health:reader',
        UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE: secret,
        UPDATE_HEALTH_SESSION_KEY_FILE: sessionKey,
      },
    );
    await waitFor(`replica ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, replica.output);
  }
});

test.afterAll(async () => {
  for (const child of children.reverse()) {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
  }
  postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a session and an incident made on one replica work on the other; logout ends the session on both', async ({
  page,
}) => {
  const [one, other] = PORTS.map((port) => `http://127.0.0.1:${port}`);
  await page.goto(`${one}/clusters/catalogd-rollout`);
  await page.getByLabel('Username').fill('sre');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${one}/clusters/catalogd-rollout`);
  await expect(page.getByTestId('user-menu')).toContainText('sre');

  // Cookies belong to the host, not the port: the browser sends the same session to the other replica.
  await page.goto(`${other}/`);
  await expect(page).toHaveURL(`${other}/`);
  await expect(page.getByTestId('user-menu')).toContainText('sre');
  expect((await page.request.get(`${other}/api/auth`)).ok()).toBe(true);
  expect(((await (await page.request.get(`${other}/api/auth`)).json()) as { user?: { name: string } }).user?.name).toBe(
    'sre',
  );

  const created = await page.request.post(`${one}/api/incidents`, {
    data: { clusterId: 'catalogd-rollout' },
    headers: { Origin: one },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const opened = await page.request.get(`${other}/api/incidents/${id}`);
  expect(opened.status()).toBe(200);
  expect(((await opened.json()) as { createdBy: string }).createdBy).toBe('sre');

  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'uh_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { name: 'Logged out' })).toBeVisible();
  // The cookie is gone from this browser; the session is gone from the database too, so a copy of it fails on both.
  for (const base of [one, other]) {
    expect((await page.request.get(`${base}/api/clusters`)).status()).toBe(401);
    expect((await fetch(`${base}/api/clusters`, { headers: { Cookie: `uh_session=${session!.value}` } })).status).toBe(
      401,
    );
  }
});
