import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * The rollback guide on `cross-minor-rollback`, on a dashboard whose scenario clock only moves when the spec says so:
 * before the rollback the 4.13 plan is blocked by the capability enums; once the clock runs the rollback the tracker
 * moves.
 */
const CLUSTER = 'cross-minor-rollback';
let server: EmbeddedServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(join(tmpdir(), 'uh-rollback-e2e-'));
  server = await startEmbeddedServer({
    port: Number(process.env.E2E_PORT ?? 3100) + 37,
    scenarios: [CLUSTER],
    speed: 0.001,
    dataDir,
  });
  // The 4.13 → 4.14 update completes by minute 10; the rollback is requested at minute 13.
  await advanceMinutes(server, CLUSTER, 11);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('walks the rollback guide and follows the rollback live', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`${server.baseURL}/clusters/${CLUSTER}`);
  await expect(page.getByTestId('desired-version')).toHaveText('4.14.27', { timeout: 60_000 });
  await page.getByTestId('rollback-guide-link').click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${CLUSTER}/rollback`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rollback guide: ${CLUSTER}`);

  // The previous history entry is offered first; its plan is refused.
  await expect(page.getByRole('radio', { name: '4.13.40' })).toBeChecked();
  await expect(page.getByTestId('rollback-verdict')).toHaveAttribute('data-allowed', 'false', { timeout: 30_000 });
  const capabilities = page.locator('[data-testid="rollback-check"][data-check-id="capabilities"]');
  await expect(capabilities).toHaveAttribute('data-status', 'block');
  for (const name of ['MachineAPI', 'Build', 'DeploymentConfig', 'ImageRegistry'])
    await expect(capabilities).toContainText(name);
  await expect(capabilities).toContainText('the CVO will be unable to write status');
  await expect(page.locator('[data-check-id="cvo-rules"]')).toHaveAttribute('data-status', 'block');
  await expect(page.getByTestId('rollback-commands')).toContainText('No command');

  // Accepting the cross-minor risk yields the forced command, still with the capability block: it stays hidden, with
  // no Copy button, until the blocking risks are acknowledged by name.
  await page.getByTestId('accept-risk').click();
  await expect(page.getByTestId('accept-risk')).toBeChecked();
  await expect(page.getByTestId('commands-hold')).toContainText('ClusterVersion CRD rejects');
  await expect(page.getByTestId('rollback-command')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy command' })).toHaveCount(0);
  await page.getByTestId('acknowledge-risks').check();
  await expect(page.getByTestId('rollback-command').first()).toHaveText(
    /^oc adm upgrade --to-image=quay\.io\/openshift-release-dev\/ocp-release@sha256:[0-9a-f]{64} --allow-explicit-upgrade --force$/,
  );
  await expect(page.locator('[data-check-id="cvo-rules"]')).toHaveAttribute('data-status', 'warn');
  await expect(page.getByTestId('rollback-verdict')).toHaveAttribute('data-allowed', 'false');

  // A what-if z-stream target passes the capability check.
  await page.getByLabel('Any release version (what-if)').fill('4.14.20');
  await page.getByRole('button', { name: 'Plan' }).click();
  await expect(page.locator('[data-check-id="capabilities"]')).toHaveAttribute('data-status', 'pass');
  await expect(page.getByTestId('rollback-verdict')).toContainText('not in the history');

  // Back to 4.13.40, start tracking, then let the scenario clock run the (forced) rollback.
  await page.getByRole('radio', { name: '4.13.40' }).click();
  await expect(page.getByRole('radio', { name: '4.13.40' })).toBeChecked();
  await expect(page.locator('[data-check-id="capabilities"]')).toHaveAttribute('data-status', 'block');
  await page.getByTestId('start-tracking').click();
  const step = (id: string) => page.locator(`[data-testid="tracker-step"][data-step-id="${id}"]`);
  await expect(step('requested')).toHaveAttribute('data-status', 'active');
  await expect(step('history-entry')).toHaveAttribute('data-status', 'pending');

  await advanceMinutes(server, CLUSTER, 5);
  await expect(step('requested')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(step('history-entry')).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(step('findings')).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  await expect(step('findings')).toContainText(/ClusterVersion status writes (are being|will be) rejected/);
  await expect(step('completed')).toHaveAttribute('data-status', 'pending');

  // After the rollback, 4.14.27 — the fix the status-write finding recommends — is a roll-forward and is named one.
  await page.getByTestId('stop-tracking').click();
  await page.getByRole('radio', { name: '4.14.27' }).click();
  await expect(page.getByTestId('rollback-verdict')).toContainText('Roll-forward to 4.14.27', { timeout: 30_000 });
  await expect(page.getByTestId('roll-forward-note')).toContainText(
    'this is a roll-forward (an update), not a rollback',
  );
  await expect(page.locator('[data-check-id="cvo-rules"]')).toContainText('an update, not a rollback');
  await expect(page.locator('[data-check-id="cvo-rules"]')).not.toHaveAttribute('data-status', 'block');
  await expect(page.locator('[data-check-id="operators"]')).toContainText('cannot be verified');
  await expect(page.locator('[data-check-id="operators"]')).not.toHaveAttribute('data-status', 'pass');
});
