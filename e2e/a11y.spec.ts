import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { MustGatherPage } from './pages/must-gather-page';
import { buildArchive } from './support/must-gather-archive';

let dir: string;
let archive: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'e2e-a11y-'));
  archive = join(dir, 'must-gather-azure-4.8.11.tar.gz');
  await buildArchive(archive);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function seriousViolations(page: Page): Promise<string[]> {
  // Next streams a dynamic page's metadata after its first HTML: scan once the title has arrived, not before.
  await expect(page).toHaveTitle(/\S/);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${theme})`, () => {
    test.use({ colorScheme: theme });

    test('fleet page has no serious or critical axe violations', async ({ fleet, page }) => {
      await fleet.goto();
      await expect(page.locator('[data-testid^="sparkline-"] svg').first()).toBeVisible({ timeout: 30_000 });
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('cluster page with the evidence drawer open has no serious or critical axe violations', async ({
      cluster,
      page,
    }) => {
      test.setTimeout(180_000);
      await cluster.goto('catalogd-rollout');
      const finding = await cluster.waitForFinding('catalog-replicas', ['warning', 'critical']);
      await cluster.expectChartDrawn('catalog-replicas');
      expect(await seriousViolations(page)).toEqual([]);
      await cluster.openEvidence(finding);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('hosted cluster page (control plane, NodePools, HCP pods) has no serious or critical axe violations', async ({
      cluster,
      page,
    }) => {
      test.setTimeout(180_000);
      await cluster.goto('hypershift-management.clusters.zstream-stalled');
      const finding = await cluster.waitForFinding('featuregate-coverage', ['critical']);
      await expect(page.getByTestId('hcp-pods')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await cluster.openEvidence(finding);
      await page.getByTestId('evidence-long-list').first().locator('summary').click();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('management cluster page with its hosted clusters has no serious or critical axe violations', async ({
      cluster,
      page,
    }) => {
      test.setTimeout(120_000);
      await cluster.goto('hypershift-management');
      await expect(page.getByTestId('hosted-cluster-link').first()).toBeVisible({ timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('rollback guide with its commands shown has no serious or critical axe violations', async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto('/clusters/cross-minor-rollback/rollback');
      await expect(page.getByTestId('rollback-verdict')).toBeVisible({ timeout: 60_000 });
      // The cross-minor plan offers its forced command once the risk is accepted and the blocking risks acknowledged.
      await page.getByTestId('accept-risk').click();
      await expect(page.getByTestId('accept-risk')).toBeChecked();
      const command = page.getByTestId('rollback-command').first();
      const acknowledge = page.getByTestId('acknowledge-risks');
      await expect(acknowledge.or(command)).toBeVisible();
      if (await acknowledge.isVisible()) await acknowledge.check();
      await expect(command).toBeVisible();
      // The command box scrolls horizontally: it must be reachable by keyboard and named.
      await expect(command).toHaveAttribute('tabindex', '0');
      await expect(command).toHaveAccessibleName(/Command 1/);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('Before-you-update section has no serious or critical axe violations', async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto('/clusters/steady');
      await expect(page.getByTestId('update-target-details')).toBeVisible({ timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('must-gather upload page, its result and an incident have no serious or critical axe violations', async ({
      page,
    }) => {
      test.setTimeout(180_000);
      const mustGather = new MustGatherPage(page);
      await mustGather.goto();
      expect(await seriousViolations(page)).toEqual([]);
      await mustGather.upload(archive);
      await mustGather.expectResult();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Create incident' }).click();
      const link = page.getByTestId('incident-link');
      await expect(link).toHaveAttribute('href', /^\/incidents\/[A-Za-z0-9_-]+$/);
      await page.goto((await link.getAttribute('href'))!);
      await expect(page.getByRole('heading', { level: 2, name: /Findings/ })).toBeVisible({ timeout: 30_000 });
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
