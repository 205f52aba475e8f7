import { expect, test } from './demo-test';
import { DEMO_SCENARIOS, type DemoScenario } from './scenarios';
import type { ClusterPage } from '../pages/cluster-page';
import type { DemoRecorder } from './recorder';

/**
 * Narrated walkthroughs, one per scenario: spot the cluster in the fleet, open it, open the finding and its
 * evidence, then open the rollback guide or create an incident and follow its link. `npm run demo` records them
 * (video, numbered screenshots); `npm test` runs them as plain e2e tests.
 */
test.describe.configure({ mode: 'serial' });

async function rollbackGuide(s: DemoScenario, cluster: ClusterPage, demo: DemoRecorder): Promise<void> {
  const { page } = cluster;
  await page.getByTestId('rollback-guide-link').click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${s.name}/rollback`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Rollback guide: ${s.name}`);
  const verdict = page.getByTestId('rollback-verdict');
  await expect(verdict).toBeVisible({ timeout: 30_000 });
  await demo.step(`Rollback guide: ${(await verdict.innerText()).trim()}`);
  await page.getByRole('heading', { level: 2, name: 'Commands' }).scrollIntoViewIfNeeded();
  await demo.step('Pre-flight checks, then the oc commands for this situation and a tracker');
}

async function incident(cluster: ClusterPage, demo: DemoRecorder): Promise<void> {
  const { page } = cluster;
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Create incident' }).click();
  const form = page.getByRole('form', { name: 'New incident' });
  await form.getByLabel(/^Note/).fill('Seen during the update window; evidence attached.');
  await demo.step("Create incident: a title (the worst finding's, editable) and a note for whoever picks it up");
  await form.getByRole('button', { name: 'Freeze incident' }).click();
  const link = page.getByTestId('incident-link');
  await expect(link).toBeVisible({ timeout: 30_000 });
  await demo.step("The view is frozen on the server from the findings' onset, behind a shareable link");
  await link.click();
  await expect(page).toHaveURL(/\/incidents\/[A-Za-z0-9_-]{22}$/);
  await expect(page.getByTestId('incident-banner')).toBeVisible({ timeout: 30_000 });
  await expect(cluster.findings.first()).toBeVisible();
  await demo.step('The incident link: its title and note, the same findings and evidence, as of when it was created');
}

for (const s of DEMO_SCENARIOS) {
  test(`[${s.name}] ${s.title}`, async ({ fleet, cluster, demo, page }) => {
    test.setTimeout(180_000);
    await fleet.goto();
    // Every embedded cluster is a row (a management cluster's hosted clusters too), not only the walkthroughs.
    const listed = ((await (await page.request.get('/api/clusters')).json()) as { clusters: unknown[] }).clusters
      .length;
    expect(listed).toBeGreaterThanOrEqual(DEMO_SCENARIOS.length);
    await expect(fleet.rows).toHaveCount(listed);
    await demo.step(`The fleet: ${listed} clusters with version, update state and worst finding`);

    const badge = fleet.row(s.name).getByTestId('severity-badge');
    await fleet.filter.fill(s.name);
    await expect(fleet.rows).toHaveCount(1);
    await demo.step(`Spot ${s.name}: its worst finding is ${await badge.getAttribute('data-severity')}`);

    await fleet.openCluster(s.name);
    await cluster.expectLoaded();
    if (!s.detector || !s.severities) {
      await expect(page.getByTestId('findings').or(page.getByTestId('no-findings'))).toBeVisible();
      const urgent = await cluster.findings.evaluateAll(
        (els) => els.filter((e) => /critical|warning/.test(e.getAttribute('data-severity') ?? '')).length,
      );
      expect(urgent).toBe(0);
      await demo.step(`${s.name}: no critical or warning findings; every detector reports`);
      await cluster.panel('catalog-replicas').scrollIntoViewIfNeeded();
      await demo.step('Detector panels: the data behind each verdict, live');
      return;
    }

    const finding = await cluster.waitForFinding(s.detector, s.severities);
    await finding.scrollIntoViewIfNeeded();
    const title = (await finding.getByRole('heading', { level: 3 }).innerText()).trim();
    await demo.step(`The finding: ${title}`);

    await cluster.openEvidence(finding);
    await expect(cluster.drawer.getByRole('heading', { level: 3, name: 'Evidence' })).toBeVisible();
    await demo.step('Its evidence: the object fields, log lines and metric values behind it');

    if (s.ending === 'rollback-guide') await rollbackGuide(s, cluster, demo);
    else if (s.ending === 'incident') await incident(cluster, demo);
  });
}
