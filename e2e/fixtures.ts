import { test as base, expect } from '@playwright/test';
import { ClusterPage } from './pages/cluster-page';
import { FleetPage } from './pages/fleet-page';

/**
 * Test fixture: page objects, plus a guard that fails any test during which the page logged a console error,
 * violated its Content-Security-Policy or threw an uncaught exception. A test that provokes an expected error (e.g. a 404 the browser itself logs) lists it
 * in `allowedConsoleErrors`.
 */
export const test = base.extend<{
  fleet: FleetPage;
  cluster: ClusterPage;
  allowedConsoleErrors: RegExp[];
  consoleGuard: string[];
}>({
  allowedConsoleErrors: [[], { option: true }],
  consoleGuard: [
    async ({ page, allowedConsoleErrors }, provide) => {
      const errors: string[] = [];
      // A blocked script or style is a bug (or an attack) even when the page still looks right.
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
          );
        });
      });
      page.on('console', (m) => {
        if (m.type() === 'error' && !allowedConsoleErrors.some((re) => re.test(m.text()))) {
          // "Failed to load resource" names no URL in its text; its location does
          errors.push(`console.error: ${m.text()}${m.location().url ? ` (${m.location().url})` : ''}`);
        }
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
    },
    { auto: true },
  ],
  fleet: async ({ page }, provide) => {
    await provide(new FleetPage(page));
  },
  cluster: async ({ page }, provide) => {
    await provide(new ClusterPage(page));
  },
});

export { expect };
