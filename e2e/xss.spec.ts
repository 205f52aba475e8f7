import { test, expect } from './fixtures';
import { XSS_BEACON_URL, XSS_CORPUS, XSS_PROBE_EXTENSION } from '../server/simulator/objects/xss-corpus';

const PROBE_FINDING = `install-settling:ClusterExtension//${XSS_PROBE_EXTENSION}:streak`;

/**
 * `extension-install-flap` carries a ClusterExtension whose labels, annotations, condition messages and the
 * operator-controller log lines about it hold an XSS corpus. Everything must show up as text and nothing may run.
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
    if (request.url().startsWith(new URL(XSS_BEACON_URL).origin) || request.url().startsWith('javascript:')) beacons.push(request.url());
  });

  await cluster.goto('extension-install-flap');
  const finding = cluster.finding(PROBE_FINDING);
  await expect(finding).toBeVisible({ timeout: 120_000 });
  await expect(finding).toContainText(XSS_CORPUS[0]);
  await cluster.openEvidence(finding);

  // Condition messages, log lines and the object excerpt (labels, annotations) all show the corpus verbatim.
  const evidence = cluster.evidenceText();
  for (const attack of XSS_CORPUS) await expect(evidence.filter({ hasText: attack }).first()).toBeVisible();
  await expect(cluster.drawer.getByText('Reconciler error', { exact: false }).first()).toBeVisible();

  // Nothing became markup or ran.
  expect(await page.locator('img[src="x"], svg[onload], script:not([src]):text("__xss")').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(beacons).toEqual([]);
});
