import { test, expect } from './fixtures';
import { XSS_BEACON_URL, XSS_CORPUS, XSS_PROBE_EXTENSION } from '../server/simulator/objects/xss-corpus';
import { revealControls } from '../lib/view/reveal-controls';

const PROBE_FINDING = `install-settling:ClusterExtension//${XSS_PROBE_EXTENSION}:streak`;

/**
 * With `--xss-probe` (the e2e dashboard opts in, playwright.config.ts), `extension-install-flap` carries a
 * ClusterExtension whose labels, annotations, condition messages and the operator-controller log lines about it hold
 * an XSS corpus; the default fleet does not. Everything must show up as text and nothing may run.
 */
test('hostile resource text is rendered as text and never executes', async ({ cluster, page }) => {
  test.setTimeout(180_000);
  const dialogs: string[] = [];
  const beacons: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (request.url().startsWith(new URL(XSS_BEACON_URL).origin) || request.url().startsWith('javascript:'))
      beacons.push(request.url());
  });

  await cluster.goto('extension-install-flap');
  const finding = cluster.finding(PROBE_FINDING);
  await expect(finding).toBeVisible({ timeout: 120_000 });
  await cluster.openEvidence(finding);
  // The row says what is wrong in a line; the drawer carries the whole summary, hostile text included, as text.
  await expect(cluster.drawer).toContainText(XSS_CORPUS[0]);
  await expect(cluster.drawer).toContainText('payload⟨U+202E⟩gnp.exe');

  // Condition messages, log lines and the object excerpt (labels, annotations) all show the corpus as text; the
  // right-to-left override shows as a visible marker instead of reversing what follows it.
  const evidence = cluster.evidenceText();
  for (const attack of XSS_CORPUS)
    await expect(evidence.filter({ hasText: revealControls(attack) }).first()).toBeVisible();
  expect(await page.evaluate(() => document.body.innerText.includes('\u202E'))).toBe(false);
  // Log lines arrive with the next log poll (every 10 s) and the open drawer updates live.
  await expect(cluster.drawer.getByText('Reconciler error', { exact: false }).first()).toBeVisible({ timeout: 30_000 });

  // Nothing became markup or ran.
  expect(await page.locator('img[src="x"], svg[onload], script:not([src]):text("__xss")').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(beacons).toEqual([]);
});
