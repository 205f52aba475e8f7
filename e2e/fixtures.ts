import { test as base, expect } from '@playwright/test';
import { ClusterPage } from './pages/cluster-page';
import { FleetPage } from './pages/fleet-page';

/**
 * Test fixture: page objects, plus a guard that fails any test during which the page logged a console error or
 * threw an uncaught exception. A test that provokes an expected error (e.g. a 404 the browser itself logs) lists it
 * in `allowedConsoleErrors`.
 */
export const test = base.extend<{ fleet: FleetPage; cluster: ClusterPage; allowedConsoleErrors: RegExp[]; consoleGuard: string[] }>({
  allowedConsoleErrors: [[], { option: true }],
  consoleGuard: [async ({ page, allowedConsoleErrors }, provide) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !allowedConsoleErrors.some((re) => re.test(m.text()))) errors.push(`console.error: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
    // The console only says "Failed to load resource"; name the URL so a failure is actionable.
    page.on('response', (response) => {
      if (response.status() >= 400 && !allowedConsoleErrors.some((re) => re.test(`status of ${response.status()}`))) {
        errors.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
      }
    });
    await provide(errors);
    expect(errors, 'the page logged errors').toEqual([]);
  }, { auto: true }],
  fleet: async ({ page }, provide) => { await provide(new FleetPage(page)); },
  cluster: async ({ page }, provide) => { await provide(new ClusterPage(page)); },
});

export { expect };
