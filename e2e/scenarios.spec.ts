import { expect, test } from './fixtures';

/**
 * One walkthrough per embedded scenario: fleet → cluster → expected finding and severity → its chart drawn with
 * data → evidence drawer with the real value or log line.
 */
const SCENARIOS: {
  id: string;
  detector: string;
  severities: readonly string[];
  evidence: RegExp;
  /** Severities at which the panel may honestly be empty and the finding carry no evidence (no metrics source yet). */
  noDataFor?: readonly string[];
  /** What the drawer must say in that case. */
  noDataText?: RegExp;
}[] = [
  {
    id: 'cross-minor-rollback',
    detector: 'status-write-rejection',
    severities: ['critical'],
    evidence: /MachineAPI|Build|DeploymentConfig|ImageRegistry/,
  },
  {
    id: 'hypershift-featuregate-drop',
    detector: 'featuregate-coverage',
    severities: ['critical'],
    evidence: /4\.14\.38/,
  },
  { id: 'catalogd-rollout', detector: 'catalog-replicas', severities: ['warning', 'critical'], evidence: /catalogd/ },
  {
    id: 'extension-install-flap',
    detector: 'install-settling',
    severities: ['warning', 'critical'],
    evidence: /ClusterExtension|namespace|failed/i,
  },
  {
    id: 'high-density-drain',
    detector: 'pod-setup-latency',
    severities: ['critical', 'warning', 'info'],
    evidence: /p99|ovnkube_controller_pod_creation_latency_seconds/,
    noDataFor: ['info'],
    noDataText: /no metrics source/i,
  },
  {
    id: 'update-in-progress',
    detector: 'update-progress',
    severities: ['critical', 'warning', 'info', 'ok'],
    evidence: /status\.(conditions|history|versions)|oc adm upgrade status/,
  },
];

test.describe('scenario walkthroughs', () => {
  for (const s of SCENARIOS) {
    test(`${s.id}: ${s.detector} finding, chart and evidence`, async ({ fleet, cluster, page }) => {
      test.setTimeout(180_000);
      await fleet.goto();
      await expect(fleet.row(s.id)).toBeVisible();
      await fleet.openCluster(s.id);
      await cluster.expectLoaded();

      const finding = await cluster.waitForFinding(s.detector, s.severities);
      const severity = (await finding.getAttribute('data-severity')) ?? '';
      await expect(finding.getByTestId('severity-badge')).toHaveText(new RegExp(severity, 'i'));

      const noData = s.noDataFor?.includes(severity) ?? false;
      if (noData) {
        await expect(cluster.panel(s.detector)).toBeVisible();
        const empty = page.getByTestId(`empty-${s.detector}`);
        if (await empty.isVisible()) await expect(empty).toContainText(/no metrics source/i);
        else await cluster.expectChartDrawn(s.detector);
      } else {
        await cluster.expectChartDrawn(s.detector);
      }

      await cluster.openEvidence(finding);
      if (noData && s.noDataText) {
        await expect(cluster.drawer).toContainText(s.noDataText);
      } else {
        await expect(cluster.evidenceText().first()).toBeVisible();
        await expect(cluster.drawer).toContainText(s.evidence);
      }
    });
  }

  test('steady: nothing red', async ({ fleet, cluster, page }) => {
    await fleet.goto();
    await expect(fleet.row('steady').getByTestId('severity-badge')).not.toHaveAttribute(
      'data-severity',
      /critical|warning/,
    );
    await fleet.openCluster('steady');
    await cluster.expectLoaded();
    await expect(page.getByTestId('findings').or(page.getByTestId('no-findings'))).toBeVisible();
    await expect(
      page.locator(
        '[data-testid="finding"][data-severity="critical"], [data-testid="finding"][data-severity="warning"]',
      ),
    ).toHaveCount(0);
  });
});
