import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`accessibility (${theme})`, () => {
    test.use({ colorScheme: theme });

    test('fleet page has no serious or critical axe violations', async ({ fleet, page }) => {
      await fleet.goto();
      await expect(page.locator('[data-testid^="sparkline-"] svg').first()).toBeVisible({ timeout: 30_000 });
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('cluster page with the evidence drawer open has no serious or critical axe violations', async ({ cluster, page }) => {
      test.setTimeout(180_000);
      await cluster.goto('catalogd-rollout');
      const finding = await cluster.waitForFinding('catalog-replicas', ['warning', 'critical']);
      await cluster.expectChartDrawn('catalog-replicas');
      expect(await seriousViolations(page)).toEqual([]);
      await cluster.openEvidence(finding);
      expect(await seriousViolations(page)).toEqual([]);
    });

    test('hosted cluster page (control plane, NodePools, HCP pods) has no serious or critical axe violations', async ({ cluster, page }) => {
      test.setTimeout(180_000);
      await cluster.goto('hypershift-management.clusters.zstream-stalled');
      await cluster.waitForFinding('featuregate-coverage', ['critical']);
      await expect(page.getByTestId('hcp-pods')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
