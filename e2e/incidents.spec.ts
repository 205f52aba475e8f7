import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * Incidents end to end on a dashboard with its own data directory: create one from the cluster view, open its link
 * in a fresh browser context, then again after the server restarted without that cluster.
 */
const CLUSTER = 'cross-minor-rollback';
const PORT = Number(process.env.E2E_PORT ?? 3100) + 38;
let server: EmbeddedServer | undefined;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(join(tmpdir(), 'uh-incidents-e2e-'));
  server = await startEmbeddedServer({ port: PORT, scenarios: [CLUSTER], speed: 0.001, dataDir });
  await advanceMinutes(server, CLUSTER, 16);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const findingIds = (page: import('@playwright/test').Page) =>
  page.getByTestId('finding').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-finding-id') ?? '').sort());

const TITLE = 'Rollback to 4.13 rejects ClusterVersion status writes';
const NOTE = 'Paged at 10:20 UTC.\n<b>CVO</b> keeps retrying; owner: team-upgrades.';

test(
  'an incident link shows the same findings, title, note and "as of" in a fresh context, after a restart and with ' +
    'the cluster gone',
  async ({ page, browser }) => {
    test.setTimeout(240_000);
    const live = server!;
    await page.goto(`${live.baseURL}/clusters/${CLUSTER}`);
    await expect(
      page.locator('[data-testid="finding"][data-detector="status-write-rejection"][data-severity="critical"]'),
    ).toBeVisible({ timeout: 60_000 });
    const before = await findingIds(page);
    await page.getByRole('button', { name: 'Create incident' }).click();
    const form = page.getByRole('form', { name: 'New incident' });
    await expect(form.getByLabel('Title')).toHaveValue(/ClusterVersion status writes (are being|will be) rejected/);
    await form.getByLabel('Title').fill(TITLE);
    await form.getByLabel(/^Note/).fill(NOTE);
    await form.getByRole('button', { name: 'Freeze incident' }).click();
    const link = page.getByTestId('incident-link');
    await expect(link).toBeVisible({ timeout: 30_000 });
    const href = (await link.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/incidents\/[A-Za-z0-9_-]{22}$/);
    const api = (await (await page.request.get(`${live.baseURL}/api${href}`)).json()) as {
      title: string;
      note: string;
      author: { kind: string };
      window: { from: number };
      health: { findings: { id: string; since?: string }[] };
    };
    const frozen = api.health.findings.map((f) => f.id).sort();
    expect(frozen).toStrictEqual(before);
    expect(api).toMatchObject({ title: TITLE, note: NOTE, author: { kind: 'local' } });
    const onsets = api.health.findings.flatMap((f) => (f.since ? [Date.parse(f.since)] : []));
    expect(api.window.from).toBeLessThan(Math.min(...onsets));

    const open = async (baseURL: string): Promise<string[]> => {
      const context = await browser.newContext();
      const fresh = await context.newPage();
      await fresh.goto(`${baseURL}${href}`);
      await expect(fresh.getByTestId('incident-banner')).toBeVisible({ timeout: 30_000 });
      await expect(fresh.getByTestId('incident-title')).toHaveText(TITLE);
      await expect(fresh.getByTestId('incident-note')).toHaveText(NOTE);
      await expect(fresh.getByTestId('incident-note').locator('b')).toHaveCount(0);
      await expect(fresh.getByTestId('incident-author')).toHaveText('local operator');
      await expect(fresh.getByTestId('sources').locator('summary')).toHaveText(
        // Upstream OLMv1's namespace is not read on OpenShift: said, not counted as behind.
        /^\d+ sources synced as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC(, \d+ not applicable \(upstream-only namespace, which OpenShift does not have\))?$/,
      );
      await expect(fresh.getByText(/All \d+ sources synced/)).toHaveCount(0);
      await expect(fresh.getByRole('heading', { name: /^Findings/ })).toContainText('as of');
      await expect(fresh.getByTestId('finding').first()).toBeVisible();
      const ids = await findingIds(fresh);
      await expect(fresh.getByTestId('incident-object').first()).toBeAttached();
      await context.close();
      return ids;
    };
    expect(await open(live.baseURL)).toStrictEqual(frozen);

    // Restart on the same data directory with a fleet that no longer has the cluster.
    await page.goto('about:blank');
    await live.stop();
    server = await startEmbeddedServer({ port: PORT, scenarios: ['steady'], speed: 0.001, dataDir });
    expect(await (await page.request.get(`${server.baseURL}/api/clusters/${CLUSTER}/health`)).status()).toBe(404);
    expect(await open(server.baseURL)).toStrictEqual(frozen);
  },
);

test('a cross-origin POST /api/incidents is refused with 403 JSON', async ({ request }) => {
  const response = await request.post(`${server!.baseURL}/api/incidents`, {
    data: { clusterId: 'steady' },
    headers: { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
  });
  expect(response.status()).toBe(403);
  expect(await response.json()).toMatchObject({ error: { code: 'cross_site_request' } });
});
