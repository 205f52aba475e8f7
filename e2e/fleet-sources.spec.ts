import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { expect, test } from './fixtures';

/**
 * Where the fleet comes from, live: a dashboard started with `--hub F:hub` (an embedded ACM hub in front of two
 * clusters, no per-cluster kubeconfig) and `--kubeconfig W` (a watched file). A ManagedCluster deleted with kubectl
 * leaves the fleet page, and returns when created again; a context added to W is a new row, without a restart.
 */
const PORT = 3193;
const SIXTY_SECONDS = 60_000;

interface Kubeconfig {
  clusters: { name: string }[];
  users: { name: string }[];
  contexts: { name: string }[];
  'current-context'?: string;
}

let dir = '';
const processes: ChildProcess[] = [];

function start(args: string[], ready: RegExp, what: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', ...args], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', UPDATE_HEALTH_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  processes.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} not ready: ${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', () => reject(new Error(`${what} exited: ${output}`)));
  });
}

function kubectl(kubeconfig: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'kube-cache'), ...args],
      { timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr}`)) : resolve(stdout)),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** The named contexts of a kubeconfig (with their clusters and users), as a kubeconfig of their own. */
function onlyContexts(config: Kubeconfig, names: string[]): Kubeconfig {
  const keep = <T extends { name: string }>(items: T[]) => items.filter((item) => names.includes(item.name));
  return {
    ...config,
    clusters: keep(config.clusters),
    users: keep(config.users),
    contexts: keep(config.contexts),
    'current-context': names[0],
  };
}

function merge(a: Kubeconfig, b: Kubeconfig): Kubeconfig {
  return {
    ...a,
    clusters: [...a.clusters, ...b.clusters],
    users: [...a.users, ...b.users],
    contexts: [...a.contexts, ...b.contexts],
  };
}

// As `kubectl config` and editors write: a new file renamed over the old one.
function write(path: string, config: Kubeconfig): void {
  writeFileSync(`${path}.tmp`, dump(config), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

const hubReader = () => join(dir, 'hub.yaml');
const hubAdmin = () => join(dir, 'hub-admin.yaml');
const watched = () => join(dir, 'watched.yaml');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dir = mkdtempSync(join(tmpdir(), 'uh-fleet-sources-'));
  const simulator = 'server/cli/sim.ts';
  await start(
    [simulator, '--scenario', 'steady,update-in-progress', '--speed', '10', '--hub', '--member-contexts'].concat([
      '--kubeconfig',
      hubReader(),
      '--admin-kubeconfig',
      hubAdmin(),
    ]),
    /simulator ready/,
    'the hub simulator',
  );
  await start(
    // Another seed: clusters of one seed share cluster IDs, and one cluster ID is one row.
    [
      simulator,
      '--scenario',
      'catalogd-rollout',
      '--seed',
      '7',
      '--speed',
      '10',
      '--kubeconfig',
      join(dir, 'other.yaml'),
    ],
    /simulator ready/,
    'the other simulator',
  );
  // The watched file starts with one cluster the hub does not manage... none yet: the hub's own member `steady`
  // through its own context, which joins the hub's `steady` by cluster ID into one row.
  write(watched(), onlyContexts(load(readFileSync(hubReader(), 'utf8')) as Kubeconfig, ['steady']));
  await start(
    [
      'server/cli/start.ts',
      '--no-build',
      '--port',
      String(PORT),
      '--hub',
      `${hubReader()}:hub`,
      '--kubeconfig',
      watched(),
    ],
    /dashboard on http/,
    'the dashboard',
  );
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`http://127.0.0.1:${PORT}/api/clusters`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline) throw new Error('the dashboard did not answer /api/clusters');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  for (const child of processes.reverse()) {
    if (child.exitCode !== null || !child.pid) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid && child.exitCode === null && process.kill(-child.pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('clusters from the hub and from a watched kubeconfig are rows; each says where it was found', async ({
  page,
  fleet,
}) => {
  await page.goto(`http://127.0.0.1:${PORT}/?sort=name`);
  await expect(fleet.row('update-in-progress')).toBeVisible({ timeout: SIXTY_SECONDS });
  await expect(fleet.row('steady')).toBeVisible({ timeout: SIXTY_SECONDS });
  await expect(fleet.row('update-in-progress').getByTestId('row-discovered-by')).toHaveText(/via hub hub/);
  // `steady` is reached both ways: one row, the kubeconfig's.
  await expect(fleet.rows).toHaveCount(2, { timeout: SIXTY_SECONDS });
  await expect(fleet.row('steady').getByTestId('row-discovered-by')).toHaveCount(0);
  await expect(page.getByTestId('membership-discovered')).toHaveText('2 discovered', { timeout: SIXTY_SECONDS });
});

test.describe('a cluster leaving', () => {
  // Until the list is polled again the departed row's trend still asks for its series, which is gone: a 404.
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('a ManagedCluster deleted with kubectl leaves the page within 60 s; created again, its row returns', async ({
    page,
    fleet,
  }) => {
    test.setTimeout(180_000);
    await page.goto(`http://127.0.0.1:${PORT}/?sort=name`);
    await expect(fleet.row('update-in-progress')).toBeVisible({ timeout: SIXTY_SECONDS });
    const saved = JSON.parse(
      await kubectl(hubAdmin(), ['--context', 'hub', 'get', 'managedcluster', 'update-in-progress', '-o', 'json']),
    ) as { metadata: Record<string, unknown>; status?: unknown };
    await kubectl(hubAdmin(), ['--context', 'hub', 'delete', 'managedcluster', 'update-in-progress']);
    await expect(fleet.row('update-in-progress')).toHaveCount(0, { timeout: SIXTY_SECONDS });

    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _created, ...metadata } = saved.metadata;
    void [_rv, _uid, _created];
    await kubectl(
      hubAdmin(),
      ['--context', 'hub', 'create', '--validate=false', '-f', '-'],
      JSON.stringify({ ...saved, metadata, status: undefined }),
    );
    await expect(fleet.row('update-in-progress')).toBeVisible({ timeout: SIXTY_SECONDS });
  });
});

test('a context added to the watched kubeconfig is a streamed row, without a restart or a list fetch', async ({
  page,
  fleet,
}) => {
  test.setTimeout(120_000);
  await page.goto(`http://127.0.0.1:${PORT}/?sort=name`);
  await expect(fleet.row('steady')).toBeVisible({ timeout: SIXTY_SECONDS });
  // The page fetches the list again now and then: held from here on, the new row can only come from the stream.
  const held: string[] = [];
  await page.route('**/api/clusters', (route) => void held.push(route.request().url()));
  const current = load(readFileSync(watched(), 'utf8')) as Kubeconfig;
  const other = load(readFileSync(join(dir, 'other.yaml'), 'utf8')) as Kubeconfig;
  write(watched(), merge(current, onlyContexts(other, ['catalogd-rollout'])));
  await expect(fleet.row('catalogd-rollout')).toBeVisible({ timeout: SIXTY_SECONDS });
  await page.unroute('**/api/clusters');
  // The membership is the list's: the next fetch counts the new cluster.
  await expect(page.getByTestId('membership-discovered')).toHaveText('3 discovered', { timeout: SIXTY_SECONDS });
});
