import { clusterHealthSchema, clusterListSchema } from '@/lib/api/dto';
import { expect, test } from './fixtures';

const MANAGEMENT = 'hypershift-management';
const STALLED = `${MANAGEMENT}.clusters.zstream-stalled`;

test.describe('HyperShift management cluster', () => {
  test('the API lists the management cluster and its hosted clusters with role and managedBy', async ({ page }) => {
    const { clusters } = clusterListSchema.parse(await (await page.request.get('/api/clusters')).json());
    expect(clusters.find((row) => row.id === MANAGEMENT)?.role).toBe('management');
    const hosted = clusters.filter((row) => row.role === 'hosted' && row.managedBy === MANAGEMENT);
    expect(hosted.map((row) => row.name).sort()).toEqual(['healthy', 'nodepool-rolling', 'zstream-stalled']);
    await expect
      .poll(
        async () => {
          const health = clusterHealthSchema.parse(
            await (await page.request.get(`/api/clusters/${STALLED}/health`)).json(),
          );
          return (
            health.findings.find(
              (finding) => finding.detector === 'featuregate-coverage' && finding.severity === 'critical',
            )?.id ?? ''
          );
        },
        { timeout: 90_000 },
      )
      .toBe('featuregate-coverage:ConfigMap/clusters-zstream-stalled/feature-gate:missing-4.14.38');
    const health = clusterHealthSchema.parse(await (await page.request.get(`/api/clusters/${STALLED}/health`)).json());
    expect(health.updateProgress?.workerPools.map((pool) => [pool.name, pool.totalNodes])).toEqual([
      ['zstream-stalled-us-east-1a', 3],
    ]);
  });

  test('a hosted cluster page shows the finding, its crash-looping HCP pod, NodePools and the control plane', async ({
    fleet,
    cluster,
    page,
  }) => {
    test.setTimeout(180_000);
    await fleet.goto();
    await fleet.openCluster(STALLED);
    await cluster.expectLoaded();
    await expect(page.getByTestId('cluster-role')).toHaveText(`Hosted cluster on ${MANAGEMENT}`);
    const finding = await cluster.waitForFinding('featuregate-coverage', ['critical']);
    // The hosted cluster has sample series of its own (required vs present versions from the management side).
    await cluster.expectChartDrawn('featuregate-coverage');
    await cluster.openEvidence(finding);
    await expect(cluster.drawer).toContainText('4.14.38');
    await expect(cluster.drawer).toContainText(/clusters-zstream-stalled/);
    await expect(cluster.drawer).toContainText(/cluster-network-operator-/);
    await page.keyboard.press('Escape');
    const hosted = page.getByTestId('hosted-control-plane');
    await expect(hosted.getByTestId('managed-by')).toHaveText(MANAGEMENT);
    await expect(hosted.getByTestId('nodepools')).toContainText('zstream-stalled-us-east-1a');
    await expect(hosted.locator('[data-testid="hcp-pods"] tr[data-status="CrashLoopBackOff"]')).toHaveCount(4, {
      timeout: 60_000,
    });
    await expect(
      hosted.locator('[data-testid="control-plane-components"] tr[data-available="False"]').first(),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'HostedCluster version history' })).toBeVisible();
  });
});
