import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * "Before you update" on `extension-install-flap` after an hour at 1 operator-controller replica behind a
 * minAvailable: 1 PDB: oc's PodDisruptionBudget precheck is False because PodDisruptionBudgetAtLimit fires, 4.18.29
 * carries the RuncShareProcessNamespace risk of its real blocked edge, and we block every target on the same PDB.
 * On `steady` (shared server) nothing blocks and the command is offered.
 */
const CLUSTER = 'extension-install-flap';
let server: EmbeddedServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(join(tmpdir(), 'uh-before-update-e2e-'));
  server = await startEmbeddedServer({
    port: Number(process.env.E2E_PORT ?? 3100) + 44,
    scenarios: [CLUSTER],
    speed: 0.001,
    dataDir,
  });
  // PodDisruptionBudgetAtLimit has `for: 60m`.
  await advanceMinutes(server, CLUSTER, 61);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('shows a conditional risk, the False precheck of the firing alert, and a target we block', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`${server.baseURL}/clusters/${CLUSTER}?target=4.18.29`);
  const section = page.getByTestId('before-update');
  await expect(section).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('update-channel')).toHaveText('stable-4.18');

  const precheck = section.locator('[data-testid="precheck"][data-status="False"]');
  await expect(precheck).toHaveCount(1, { timeout: 60_000 });
  await expect(precheck).toContainText('recommended/PodDisruptionBudgetAlerts/PodDisruptionBudgetAtLimit/0');
  await expect(precheck).toContainText(
    'Namespace=openshift-operator-controller, PodDisruptionBudget=operator-controller-controller-manager.',
  );

  const details = page.getByTestId('update-target-details');
  await expect(details.getByRole('heading', { name: 'Update to 4.18.29' })).toBeVisible();
  await expect(details.getByTestId('oc-verdict')).toContainText('Recommended=False (RuncShareProcessNamespace)');
  const risk = details.getByTestId('update-risk');
  await expect(risk).toContainText(
    'Some runc 1.2 releases fail to launch containers in some Pods where shareProcessNamespace is explicitly set true.',
  );
  const link = 'https://issues.redhat.com/browse/RUN-3748';
  await expect(risk.getByRole('link', { name: link })).toHaveAttribute('href', link);

  const drain = details.locator('[data-testid="prediction"][data-check="catalog-drain"]');
  await expect(drain).toHaveAttribute('data-status', 'block');
  await expect(drain).toContainText(
    'Node drains will block on openshift-operator-controller/operator-controller-controller-manager',
  );
  await expect(details.getByTestId('update-blocked')).toBeVisible();
  await expect(details.getByTestId('update-command')).toHaveCount(0);

  // Another target through the table keeps the choice in the URL.
  await section.locator('[data-testid="update-target"][data-version="4.18.15"]').getByRole('button').click();
  await expect(page).toHaveURL(/[?&]target=4\.18\.15/);
  await expect(details.getByRole('heading', { name: 'Update to 4.18.15' })).toBeVisible();
  await expect(details.getByTestId('oc-verdict')).toHaveText('oc: no known issues relevant to this cluster.');
});

test('steady: nothing blocks, so the oc command is there to copy', async ({ page }) => {
  await page.goto('/clusters/steady?target=4.16.11');
  const details = page.getByTestId('update-target-details');
  await expect(details.getByRole('heading', { name: 'Update to 4.16.11' })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-testid="precheck"][data-status="False"]')).toHaveCount(0);
  await expect(details.locator('[data-testid="prediction"][data-status="block"]')).toHaveCount(0);
  await expect(details.getByTestId('update-command')).toContainText('oc adm upgrade --to 4.16.11');
});
