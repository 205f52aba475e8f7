import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { APIRequestContext } from '@playwright/test';
import { clusterSeriesSchema } from '@/lib/api/dto';
import { podSetupLatencySchema } from '@/lib/api/latency-dto';
import { DEFAULT_START_TIME } from '@/server/simulator/core';
import { HD_BURST_WINDOW } from '@/server/simulator/scenarios/high-density-drain';
import { expect, test } from './fixtures';

/**
 * Failure mode D on the embedded fleet without Prometheus: the dashboard scrapes the ovnkube pods through the pod
 * proxy; once the drain of `high-density-drain` is under way the D panel draws p50/p95/p99 and the p99 finding is
 * critical. The spec moves the scenario's clock into the drain's burst with the launcher's admin kubeconfig when it
 * is not there yet; never further, as the suite's other specs of this cluster come later in the same story.
 */
const CLUSTER = 'high-density-drain';
const PORT = Number(process.env.E2E_PORT ?? 3100);

interface Kubeconfig {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
}

function simAdvance(by: string): Promise<void> {
  const dataDir = process.env.UPDATE_HEALTH_DATA_DIR ?? 'data';
  const kubeconfig = load(
    readFileSync(join(dataDir, `embedded-${PORT}`, 'admin-kubeconfig.yaml'), 'utf8'),
  ) as Kubeconfig;
  const entry = kubeconfig.clusters.find((c) => c.name === CLUSTER);
  const token = kubeconfig.users.find((u) => u.name === CLUSTER)?.user.token;
  if (!entry || !token) throw new Error(`no ${CLUSTER} in the admin kubeconfig`);
  const url = new URL(`/__sim/advance?by=${by}`, entry.cluster.server);
  const ca = Buffer.from(entry.cluster['certificate-authority-data'], 'base64');
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { method: 'POST', ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`advance: HTTP ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Advances the scenario's clock to the middle of the drain's burst, unless it is there or past it already. */
async function intoTheBurst(request: APIRequestContext): Promise<void> {
  const answer = await request.get(`/api/clusters/${CLUSTER}/series`);
  expect(answer.status()).toBe(200);
  const { now } = clusterSeriesSchema.parse(await answer.json());
  const due = DEFAULT_START_TIME + (HD_BURST_WINDOW.fromMs + HD_BURST_WINDOW.toMs) / 2 - now;
  if (due > 0) await simAdvance(`${Math.ceil(due / 1000)}s`);
}

test.describe('pod-setup latency (failure mode D)', () => {
  test('the D panel draws the quantiles and the p99 finding turns critical during the drain', async ({
    cluster,
    page,
  }) => {
    test.setTimeout(150_000);
    await intoTheBurst(page.request);
    await cluster.goto(CLUSTER);

    const finding = await cluster.waitForFinding('pod-setup-latency', ['critical'], 90_000);
    await expect(finding).toContainText(/p99/);
    await expect(cluster.panel('pod-setup-latency')).toBeVisible();
    await cluster.expectChartDrawn('pod-setup-latency');

    const id = await cluster.openEvidence(finding);
    expect(id).toMatch(/^pod-setup-latency:/);
    await expect(cluster.evidenceText().first()).toBeVisible();
    await expect(cluster.drawer).toContainText(/Classic bucket holding p99/);

    const answer = await page.request.get(`/api/clusters/${CLUSTER}/metrics/pod-setup-latency?px=600`);
    expect(answer.status()).toBe(200);
    const dto = podSetupLatencySchema.parse(await answer.json());
    expect(dto.source).toBe('scrape');
    const p99 = dto.quantiles.p99.filter((p) => p.v !== null);
    expect(p99.length).toBeGreaterThan(0);
    expect(Math.max(...p99.map((p) => p.v ?? 0))).toBeGreaterThan(3);
    expect(Object.keys(dto.perNode).length).toBeGreaterThanOrEqual(2);
    for (const p of p99) expect(p.lower ?? 0).toBeLessThan(p.v ?? 0);
  });

  test('the latency API validates its parameters and names unknown clusters', async ({ page }) => {
    expect((await page.request.get(`/api/clusters/${CLUSTER}/metrics/pod-setup-latency?step=0`)).status()).toBe(400);
    expect((await page.request.get(`/api/clusters/${CLUSTER}/metrics/pod-setup-latency?from=20&to=10`)).status()).toBe(
      400,
    );
    expect((await page.request.get(`/api/clusters/${CLUSTER}/metrics/pod-setup-latency?bogus=1`)).status()).toBe(400);
    expect((await page.request.get('/api/clusters/no-such-cluster/metrics/pod-setup-latency')).status()).toBe(404);
  });
});
