import { expect, test } from './fixtures';

const FLEET = [
  'steady',
  'update-in-progress',
  'cross-minor-rollback',
  'hypershift-featuregate-drop',
  'catalogd-rollout',
  'high-density-drain',
  'extension-install-flap',
  'hypershift-management',
  // The management cluster's HostedClusters are fleet members too.
  'hypershift-management.clusters.zstream-stalled',
  'hypershift-management.clusters.healthy',
  'hypershift-management.clusters.nodepool-rolling',
];

test.describe('fleet', () => {
  test('lists every cluster with version, update state, worst finding and a sparkline', async ({ fleet, page }) => {
    await fleet.goto();
    await expect(fleet.rows).toHaveCount(FLEET.length);
    for (const id of FLEET) await expect(fleet.row(id)).toBeVisible();
    await expect(fleet.row('steady').getByTestId('severity-badge')).toBeVisible();
    await expect(page.locator('[data-testid^="sparkline-"] svg').first()).toBeVisible({ timeout: 30_000 });
  });

  test('a row names its worst finding with its failure mode, counts findings by severity, and labels its sparkline', async ({
    fleet,
    page,
  }) => {
    await fleet.goto();
    const worst = fleet.row('hypershift-featuregate-drop').getByTestId('row-worst');
    await expect(worst.getByTitle('Failure mode A')).toBeVisible({ timeout: 120_000 });
    await expect(worst.getByTestId('severity-badge')).toHaveText(/critical/i);
    await expect(worst.getByTestId('row-counts')).toHaveText(/\b\d+ critical\b/);
    await expect(fleet.row('steady').getByTestId('severity-badge')).not.toHaveAttribute(
      'data-severity',
      /critical|warning/,
    );
    const spark = page.locator('[data-testid^="sparkline-"]').first();
    await expect(spark).toHaveAttribute('role', 'img', { timeout: 30_000 });
    await expect(spark).toHaveAttribute('aria-label', /·.+, in (count|seconds|percent), last 1 h: latest /);
  });

  test("the FeatureGate cluster's sparkline plots its FeatureGate signal over a labelled window", async ({ fleet }) => {
    await fleet.goto();
    const row = fleet.row('hypershift-featuregate-drop');
    await expect(row.getByTestId('row-worst').getByTitle('Failure mode A')).toBeVisible({ timeout: 120_000 });
    const spark = row.getByTestId('sparkline-hypershift-featuregate-drop');
    await expect(spark).toHaveAttribute('data-detector', 'featuregate-coverage', { timeout: 30_000 });
    await expect(spark).toHaveAttribute('data-window', 'last 1 h');
    await expect(spark).toHaveAttribute(
      'aria-label',
      /^FeatureGate version coverage · Missing versions, in count, last 1 h: latest \d+$/,
    );
    await expect(spark.locator('.sparkline-caption')).toHaveText('Missing versions, last 1 h');
    await expect(spark.locator('svg path.recharts-line-curve')).toHaveCount(1);
  });

  test('says so when no cluster matches the filters of a link (an unknown management cluster)', async ({ page }) => {
    await page.goto('/?mgmt=no-such-management-cluster');
    await expect(page.getByTestId('fleet-no-match')).toHaveText('No cluster matches these filters.');
    await expect(page.getByTestId('fleet-count')).toHaveText(`0 of ${FLEET.length} clusters`);
  });

  test('sorts by column and keeps the sort in the URL', async ({ fleet, page }) => {
    await fleet.goto();
    await fleet.sortButton('Cluster').click();
    await expect(page).toHaveURL(/sort=name/);
    const asc = await fleet.topLevelNames();
    expect(asc).toEqual([...asc].sort());
    await fleet.sortButton('Cluster').click();
    await expect(page).toHaveURL(/dir=desc/);
    expect(await fleet.topLevelNames()).toEqual([...asc].reverse());
    await expect(page.getByRole('columnheader', { name: /Cluster/ })).toHaveAttribute('aria-sort', 'descending');
  });

  test('groups hosted clusters under their management cluster, collapsible, with counts by severity', async ({
    fleet,
  }) => {
    await fleet.goto();
    const ids = await fleet.rowIds();
    const at = ids.indexOf('hypershift-management');
    expect(ids.slice(at + 1, at + 4).sort()).toEqual(
      FLEET.filter((id) => id.startsWith('hypershift-management.')).sort(),
    );
    const toggle = fleet.row('hypershift-management').getByTestId('hosted-toggle');
    await expect(toggle).toHaveText(/3 hosted/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(fleet.row('hypershift-management.clusters.zstream-stalled')).toHaveAttribute('data-depth', '1');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(fleet.rows).toHaveCount(FLEET.length - 3);
    await toggle.click();
    await expect(fleet.rows).toHaveCount(FLEET.length);
  });

  test('filters by text', async ({ fleet, page }) => {
    await fleet.goto();
    await fleet.filter.fill('cross-minor');
    await expect(fleet.rows).toHaveCount(1);
    await expect(fleet.row('cross-minor-rollback')).toBeVisible();
    await expect(page).toHaveURL(/q=cross-minor/);
    await page.reload();
    await expect(fleet.rows).toHaveCount(1);
  });

  test('is usable with the keyboard', async ({ fleet, page }) => {
    await fleet.goto();
    await fleet.filter.focus();
    await fleet.filter.fill('steady');
    await expect(fleet.rows).toHaveCount(1);
    // Tab from the filter reaches the sort buttons, then the cluster link.
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      if (
        await fleet
          .row('steady')
          .getByRole('link')
          .evaluate((el) => el === document.activeElement)
      )
        break;
    }
    await expect(fleet.row('steady').getByRole('link')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/clusters\/steady/);
  });

  test('theme toggle switches data-theme and persists it', async ({ fleet, page }) => {
    await fleet.goto();
    const toggle = page.getByTestId('theme-toggle');
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await toggle.click();
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(after).not.toBe(before);
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
  });
});
