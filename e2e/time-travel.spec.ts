import type { APIRequestContext } from '@playwright/test';
import { timelineSchema, type TimelineEntryDto } from '@/lib/api/history-dto';
import { clusterListSchema } from '@/lib/api/dto';
import { expect, test } from './fixtures';

/**
 * A moment between two openings recorded in the finding history: the earlier finding still open then, the later one
 * not yet opened. Looked for on every embedded cluster, from what the timeline API serves.
 */
async function momentBetweenOpenings(
  request: APIRequestContext,
): Promise<{ id: string; at: string; open: TimelineEntryDto; later: TimelineEntryDto } | undefined> {
  const { clusters } = clusterListSchema.parse(await (await request.get('/api/clusters')).json());
  for (const { id } of clusters) {
    const answer = await request.get(`/api/clusters/${encodeURIComponent(id)}/timeline`);
    if (!answer.ok()) continue;
    const { entries } = timelineSchema.parse(await answer.json());
    for (const open of entries) {
      const opened = Date.parse(open.openedAt);
      const later = entries.find((entry) => {
        const t = Date.parse(entry.openedAt);
        // Two seconds apart at least, so the moment between them is a whole second inside both bounds.
        return (
          entry.findingId !== open.findingId &&
          t - opened >= 2_000 &&
          (!open.resolvedAt || Date.parse(open.resolvedAt) > t)
        );
      });
      if (later) {
        const at = new Date(Math.floor((opened + Date.parse(later.openedAt)) / 2_000) * 1_000).toISOString();
        return { id, at, open, later };
      }
    }
  }
  return undefined;
}

test.describe('time travel on the cluster page', () => {
  test('?at= a past moment shows the finding open then and not one opened later, under a not-live banner', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    let found: Awaited<ReturnType<typeof momentBetweenOpenings>>;
    await expect
      .poll(async () => (found = await momentBetweenOpenings(request)), { timeout: 120_000, intervals: [2_000] })
      .toBeDefined();
    const { id, at, open, later } = found!;

    await page.goto(`/clusters/${encodeURIComponent(id)}?at=${encodeURIComponent(at)}`);
    const banner = page.getByTestId('time-travel-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText('not live');
    await expect(banner).toContainText('Evidence and remediation are not kept');
    const then = page.getByTestId('time-travel-findings');
    await expect(then.locator(`[data-finding-id="${open.findingId}"]`)).toBeVisible();
    await expect(then.locator(`[data-finding-id="${later.findingId}"]`)).toHaveCount(0);
    // The live list and the live-only views are not shown as if they were of then.
    await expect(page.getByRole('heading', { name: 'Update progress' })).toHaveCount(0);
    await expect(page.getByTestId('rollback-guide-link')).toHaveCount(0);
    await expect(page.getByTestId('finding-timeline')).toBeVisible();

    await page.getByTestId('back-to-live').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('at')).toBeNull();
    await expect(page.getByTestId('time-travel-banner')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Update progress' })).toBeVisible();
  });
});
