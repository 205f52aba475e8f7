import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * One account of the update state, as a new user meets it mid-update: on `update-in-progress` with the control plane
 * done and worker-1 draining behind a PDB, the header names the worker phase (never "100 % Completed") and
 * Before-you-update offers no command; on `cross-minor-rollback` after the forced rollback, the page says it rolls back
 * and that ClusterVersion status is frozen, with no green Completed.
 */
let server: EmbeddedServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  dataDir = mkdtempSync(join(tmpdir(), 'uh-update-state-e2e-'));
  server = await startEmbeddedServer({
    port: Number(process.env.E2E_PORT ?? 3100) + 45,
    scenarios: ['update-in-progress', 'cross-minor-rollback'],
    speed: 0.001,
    dataDir,
  });
  // Control plane done by 32 min; worker-1 drains behind the PDB until 85 min. The rollback freezes status from 14 min.
  await advanceMinutes(server, 'update-in-progress', 50);
  await advanceMinutes(server, 'cross-minor-rollback', 20);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('update-in-progress mid-drain: the header names the worker phase and no update command is offered', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${server.baseURL}/clusters/update-in-progress`);
  const state = page.getByTestId('update-state');
  await expect(state).toHaveAttribute('data-phase', 'updating-workers', { timeout: 60_000 });
  await expect(page.getByTestId('update-state-label')).toHaveText('Updating workers to 4.16.9');
  await expect(state).toContainText('worker 1/3');
  await expect(state).not.toContainText('Completed');
  await expect(state).not.toContainText('0s left');

  const section = page.getByTestId('before-update');
  await expect(section.getByTestId('update-busy')).toContainText('Updating workers to 4.16.9');
  await expect(section.getByTestId('update-command')).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Copy command' })).toHaveCount(0);
  // Preselected: the newest target the update service recommends, as the API reports it.
  const health = (await (
    await page.request.get(`${server.baseURL}/api/clusters/update-in-progress/health`)
  ).json()) as {
    updateRecommendations: { updates: { version: string; recommended: boolean }[] } | null;
  };
  const newestRecommended = health.updateRecommendations?.updates.find((target) => target.recommended)?.version;
  expect(newestRecommended).toBeDefined();
  await expect(section.getByTestId('update-target-details').getByRole('heading', { level: 4 })).toHaveText(
    `Update to ${newestRecommended}`,
  );
  await expect(section.getByTestId('update-blocked')).toContainText('An update is in progress');
});

test('cross-minor-rollback: rolling back with ClusterVersion status frozen, not a green Completed', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${server.baseURL}/clusters/cross-minor-rollback`);
  const banner = page.getByTestId('status-frozen');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toContainText('ClusterVersion status frozen');
  await expect(banner).toContainText('values below are stale');
  await expect(page.getByTestId('update-state')).toHaveAttribute('data-phase', 'status-frozen');
  await expect(page.getByTestId('update-state-label')).toHaveText(
    'Rolling back to 4.13.40 · ClusterVersion status frozen',
  );
  await expect(page.getByTestId('update-state')).not.toContainText('Completed');
  await expect(page.getByTestId('update-command')).toHaveCount(0);
});
