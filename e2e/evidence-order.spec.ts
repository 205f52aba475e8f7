import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * Evidence in the order an SRE acts: the fix above the proof, repeated log lines folded, long component lists
 * summarised with the crash-looping ones first, hosted tables worst first, and links between a management cluster
 * and its hosted clusters. `cross-minor-rollback` runs on its own dashboard whose clock the spec moves.
 */
const ROLLBACK = 'cross-minor-rollback';
const MANAGEMENT = 'hypershift-management';
const HOSTED = `${MANAGEMENT}.clusters.zstream-stalled`;
let server: EmbeddedServer | undefined;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(join(tmpdir(), 'uh-evidence-e2e-'));
  server = await startEmbeddedServer({
    port: Number(process.env.E2E_PORT ?? 3100) + 61,
    scenarios: [ROLLBACK],
    speed: 0.001,
    dataDir,
  });
  // The rollback is requested at minute 13; by 16 the CVO's status writes are rejected and logged over and over.
  await advanceMinutes(server, ROLLBACK, 16);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the cross-minor-rollback drawer shows the remediation above the logs, with repeats folded', async ({
  cluster,
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${server!.baseURL}/clusters/${ROLLBACK}`);
  await cluster.expectLoaded();
  // The observed finding (not the prediction) carries the CVO's rejection log; the clock moves until it shows.
  const finding = cluster.findingsOf('status-write-rejection', ['critical']).filter({ hasText: 'are being rejected' });
  await expect
    .poll(
      async () => {
        if ((await finding.count()) === 0) await server!.sim(ROLLBACK, 'advance?by=1m');
        return finding.count();
      },
      { timeout: 90_000, intervals: [1_000] },
    )
    .toBe(1);
  await cluster.openEvidence(finding);
  const remediation = cluster.drawer.getByTestId('remediation');
  const log = cluster.drawer.getByTestId('evidence-log').first();
  await expect(remediation).toBeVisible();
  await expect(log).toBeVisible();
  const [fix, proof] = await Promise.all([remediation.boundingBox(), log.boundingBox()]);
  expect(fix!.y).toBeLessThan(proof!.y);
  await expect(cluster.drawer.getByTestId('evidence-repeats').first()).toContainText(/\d+ lines, 1 distinct/);
  await expect(log).toContainText(/\[×\d+, \d{4} \d{2}:\d{2}:\d{2}\.\d+ … \d{4} \d{2}:\d{2}:\d{2}\.\d+\]/);
});

test('the hosted FeatureGate finding lists its components summarised, crash-looping ones first', async ({
  cluster,
  page,
}) => {
  test.setTimeout(180_000);
  await cluster.goto(HOSTED);
  const finding = await cluster.waitForFinding('featuregate-coverage', ['critical']);
  await cluster.openEvidence(finding);
  // The summary names how many components, not all of them; the full text stays behind a disclosure.
  await expect(cluster.drawer.getByTestId('evidence-summary')).toContainText(/\(\d+: [^()]+ and \d+ more\)/);
  // The crash-looping consumers' logs come before the fields that explain them.
  await expect(cluster.evidenceText().first()).toHaveAttribute('data-kind', 'log');
  const list = cluster.drawer.getByTestId('evidence-long-list').first();
  await expect(list).toContainText(/\d+ items; with a crash-looping or failing pod:/, { timeout: 60_000 });
  await expect(list.getByTestId('evidence-failing')).toContainText('cluster-network-operator');
  await expect(list.getByTestId('evidence-value')).toBeHidden();
  await list.getByText(/All \d+ \(failing first\)/).click();
  await expect(list.getByTestId('evidence-value')).toBeVisible();
  const failing = (await list.getByTestId('evidence-failing').textContent())!;
  expect((await list.getByTestId('evidence-value').textContent())!.startsWith(failing)).toBe(true);
  await page.keyboard.press('Escape');

  // Hosted tables, worst first: the crash-looping pods head the HCP pod table.
  const pods = page.locator('[data-testid="hcp-pods"] tbody tr');
  await expect(page.locator('[data-testid="hcp-pods"] tr[data-status="CrashLoopBackOff"]')).toHaveCount(4, {
    timeout: 60_000,
  });
  const statuses = await pods.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
  expect(statuses.slice(0, 4)).toEqual(Array(4).fill('CrashLoopBackOff'));
});

test('a management cluster links to its hosted clusters, and a hosted cluster links back', async ({
  cluster,
  page,
}) => {
  test.setTimeout(120_000);
  await cluster.goto(MANAGEMENT);
  const link = page.getByTestId('hosted-clusters').getByRole('link', { name: /zstream-stalled/ });
  await expect(link).toBeVisible({ timeout: 60_000 });
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${HOSTED.replace(/\./g, '\\.')}$`));
  await page.getByTestId('managed-by').click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${MANAGEMENT}$`));
});

test('the condition timeline shows problem lanes first and can show the quieter ones', async ({ cluster, page }) => {
  test.setTimeout(120_000);
  // node-tuning stays Degraded while dozens of healthy conditions (ClusterCatalogs, operators) keep reconciling.
  await cluster.goto('hypershift-featuregate-drop');
  await cluster.waitForFinding('featuregate-coverage', ['critical']);
  const timeline = page.getByTestId('condition-timeline');
  const lanes = timeline.locator('.timeline-lane');
  const more = timeline.getByTestId('timeline-show-all');
  await expect(more).toBeVisible({ timeout: 60_000 });
  await expect(lanes.first().locator('.seg-bad').first()).toBeAttached();
  const before = await lanes.count();
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  expect(await lanes.count()).toBeGreaterThan(before);
});
