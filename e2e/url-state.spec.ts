import { expect, test } from './fixtures';

const ID = 'cross-minor-rollback';
const DETECTOR = 'status-write-rejection';

test.describe('URL state', () => {
  test('selecting a finding puts finding and panel in the URL, and the copied URL reopens the same view', async ({
    cluster,
    page,
    context,
    browser,
  }) => {
    test.setTimeout(180_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await cluster.goto(ID, '?range=6h');
    const finding = await cluster.waitForFinding(DETECTOR, ['critical']);
    const findingId = await cluster.openEvidence(finding);

    await expect.poll(() => new URL(page.url()).searchParams.get('finding')).toBe(findingId);
    expect(new URL(page.url()).searchParams.get('panel')).toBe(DETECTOR);
    expect(new URL(page.url()).searchParams.get('range')).toBe('6h');
    await expect(cluster.panel(DETECTOR)).toHaveAttribute('data-focused', 'true');

    await page.getByRole('button', { name: 'Copy link to this view' }).click();
    await expect(page.getByText('Copied').first()).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(page.url());

    const other = await browser.newContext();
    const page2 = await other.newPage();
    const errors: string[] = [];
    page2.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page2.goto(copied);
    const drawer = page2.getByTestId('evidence-drawer');
    await expect(drawer).toBeVisible({ timeout: 30_000 });
    await expect(drawer).toHaveAttribute('data-finding-id', findingId);
    await expect(page2.getByTestId(`panel-${DETECTOR}`)).toHaveAttribute('data-focused', 'true');
    await expect(page2.getByRole('button', { name: '6 hours' })).toHaveAttribute('aria-pressed', 'true');
    expect(errors).toEqual([]);
    await other.close();
  });

  test('the evidence drawer survives live updates', async ({ cluster, page }) => {
    test.setTimeout(180_000);
    await cluster.goto(ID);
    const finding = await cluster.waitForFinding(DETECTOR, ['critical']);
    const findingId = await cluster.openEvidence(finding);
    await expect(cluster.streamStatus).toHaveAttribute('data-status', 'live', { timeout: 30_000 });
    // Wait until a live sample has redrawn a chart, then check the drawer is intact.
    const line = cluster.chart(DETECTOR).locator('path.recharts-line-curve').first();
    const before = await line.getAttribute('d');
    await expect.poll(() => line.getAttribute('d'), { timeout: 60_000 }).not.toBe(before);
    await expect(cluster.drawer).toBeVisible();
    await expect(cluster.drawer).toHaveAttribute('data-finding-id', findingId);
    expect(new URL(page.url()).searchParams.get('finding')).toBe(findingId);
  });

  test('a chart tooltip survives live updates', async ({ cluster, page }) => {
    test.setTimeout(180_000);
    await cluster.goto('catalogd-rollout');
    await cluster.expectChartDrawn('catalog-replicas');
    await expect(cluster.streamStatus).toHaveAttribute('data-status', 'live', { timeout: 30_000 });
    const grid = cluster.chart('catalog-replicas').locator('.recharts-cartesian-grid');
    await grid.scrollIntoViewIfNeeded();
    const box = await grid.boundingBox();
    if (!box) throw new Error('chart has no box');
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.4);
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.4, { steps: 4 });
    const tooltip = cluster.chart('catalog-replicas').locator('.recharts-tooltip-wrapper');
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(/Desired|Ready/);
    // A live sample redraws the line; the tooltip must still be there afterwards.
    const line = cluster.chart('catalog-replicas').locator('path.recharts-line-curve').first();
    const before = await line.getAttribute('d');
    await expect.poll(() => line.getAttribute('d'), { timeout: 60_000 }).not.toBe(before);
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText(/Desired|Ready/);
  });

  test('closing the drawer removes the finding from the URL and returns focus', async ({ cluster, page }) => {
    test.setTimeout(180_000);
    await cluster.goto(ID);
    const finding = await cluster.waitForFinding(DETECTOR, ['critical']);
    await cluster.openEvidence(finding);
    await page.keyboard.press('Escape');
    await expect(cluster.drawer).toBeHidden();
    await expect.poll(() => new URL(page.url()).searchParams.get('finding')).toBeNull();
    await expect(finding.getByRole('button', { name: /Evidence/ })).toBeFocused();
  });
});

test.describe('unknown cluster', () => {
  // The browser itself logs the 404 of the health and series requests.
  test.use({ allowedConsoleErrors: [/status of 404/] });

  test('shows a not-found message and opens no stream', async ({ page }) => {
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/stream')) streams.push(r.url());
    });
    await page.goto('/clusters/no-such-cluster');
    await expect(page.getByRole('heading', { name: 'Cluster not found' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('link', { name: 'Back to the fleet' })).toBeVisible();
    expect(streams).toEqual([]);
  });
});
