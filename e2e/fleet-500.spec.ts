import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * `npm start -- --fleet 500`: 500 embedded clusters cycling through the scenarios (ids `<scenario>-<i>`), with the
 * hosted clusters of every management cluster as rows of their own. The fleet page stays usable: the table is
 * virtualized, filters narrow it to one management cluster's hosted clusters, and one of them opens.
 */
const PORT = 3191;
let server: EmbeddedServer;
let dir = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(420_000);
  dir = mkdtempSync(join(tmpdir(), 'uh-fleet500-'));
  server = await startEmbeddedServer({
    port: PORT,
    scenarios: [
      'steady',
      'update-in-progress',
      'cross-minor-rollback',
      'hypershift-featuregate-drop',
      'catalogd-rollout',
      'high-density-drain',
      'extension-install-flap',
      'hypershift-management',
    ],
    speed: 1,
    dataDir: join(dir, 'data'),
    args: ['--fleet', '500'],
    readyPath: '/readyz',
    readyTimeoutMs: 400_000,
  });
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the fleet page opens 500 clusters virtualized, filters to one management cluster's hosted clusters and opens one", async ({
  page,
  fleet,
}) => {
  test.setTimeout(180_000);
  const listed = page.waitForResponse((response) => response.url().endsWith('/api/clusters') && response.ok());
  // Sorted by name: the default severity order moves rows as 500 live stories change, and focus would move with them.
  await page.goto(`${server.baseURL}/?sort=name`);
  await listed;
  const dataAt = await page.evaluate(() => performance.now());
  await expect(fleet.rows.first()).toBeVisible({ timeout: 30_000 });
  const renderedAt = await page.evaluate(() => performance.now());
  const renderMs = Math.round(renderedAt - dataAt);
  test.info().annotations.push({ type: 'table rendered after its data', description: `${renderMs} ms` });
  console.log(`fleet of 500: table rendered ${renderMs} ms after /api/clusters answered`);

  const total = Number(/of (\d+) clusters/.exec(await page.getByTestId('fleet-count').innerText())?.[1]);
  expect(total).toBeGreaterThanOrEqual(500);
  // Only a screenful (plus a margin) is in the DOM.
  expect(await fleet.rows.count()).toBeLessThan(100);

  // Keyboard: End goes to the last row however far down it is; Home comes back.
  await fleet.rows.first().getByRole('link').focus();
  await page.keyboard.press('End');
  await expect(page.locator(`tr[data-index="${total - 1}"] a[data-row-link]`)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(page.locator('tr[data-index="0"] a[data-row-link]')).toBeFocused();

  await page.getByTestId('filter-role').selectOption('hosted');
  await page.getByTestId('filter-management').selectOption('hypershift-management-7');
  await expect(page).toHaveURL(/role=hosted/);
  await expect(page).toHaveURL(/mgmt=hypershift-management-7/);
  await expect(fleet.rows).toHaveCount(3);
  const ids = await fleet.rowIds();
  for (const id of ids) {
    expect(id.startsWith('hypershift-management-7.clusters.')).toBe(true);
    await expect(fleet.row(id)).toHaveAttribute('data-role', 'hosted');
  }
  // The server is busy with 500 clusters on this machine: give the page navigation time.
  await fleet.row(ids[0]).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${ids[0].replaceAll('.', '\\.')}(\\?|$)`), { timeout: 60_000 });
  await expect(page.getByRole('heading', { level: 2, name: 'HostedCluster version history' })).toBeVisible({
    timeout: 30_000,
  });
});
