import { test as base, expect } from '@playwright/test';
import { ClusterPage } from './pages/cluster-page';
import { FleetPage } from './pages/fleet-page';

/**
 * Test fixture: page objects, plus a guard that fails any test during which the page logged a console error or
 * threw an uncaught exception.
 */
export const test = base.extend<{ fleet: FleetPage; cluster: ClusterPage; consoleGuard: string[] }>({
  consoleGuard: [async ({ page }, provide) => {
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`console.error: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    await provide(errors);
    expect(errors, 'the page logged errors').toEqual([]);
  }, { auto: true }],
  fleet: async ({ page }, provide) => { await provide(new FleetPage(page)); },
  cluster: async ({ page }, provide) => { await provide(new ClusterPage(page)); },
});

export { expect };
