import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { advanceMinutes, startEmbeddedServer, type EmbeddedServer } from './support/embedded-server';

/**
 * Seven tabs of one browser over HTTP/1.1, where Chromium opens at most six connections to an origin: four on the
 * fleet page and three on `update-in-progress`. One tab holds the live stream for all of them, so a change the
 * scenario makes (the control plane finishing) reaches every tab. With a stream per tab the seventh would get
 * nothing, not even its page's data.
 */
const CLUSTER = 'update-in-progress';
let server: EmbeddedServer;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(join(tmpdir(), 'uh-shared-stream-e2e-'));
  server = await startEmbeddedServer({
    port: Number(process.env.E2E_PORT ?? 3100) + 46,
    scenarios: [CLUSTER, 'steady'],
    speed: 0.001,
    dataDir,
  });
  // The control plane updates from the first minutes until about 32 min.
  await advanceMinutes(server, CLUSTER, 10);
});

test.afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a change reaches all seven tabs of one browser through one shared stream', async ({ page, context }) => {
  test.setTimeout(240_000);
  const fleetPhase = (tab: Page) => tab.locator(`[data-cluster-id="${CLUSTER}"] [data-testid="row-update"]`);
  const clusterPhase = (tab: Page) => tab.getByTestId('update-state');
  const streams: string[] = [];
  context.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/stream') streams.push(r.url());
  });

  const tabs: { page: Page; phase: (tab: Page) => ReturnType<Page['locator']> }[] = [];
  for (let i = 0; i < 7; i++) {
    const tab = i === 0 ? page : await context.newPage();
    const onFleet = i % 2 === 0;
    await tab.goto(onFleet ? `${server.baseURL}/` : `${server.baseURL}/clusters/${CLUSTER}`);
    const phase = onFleet ? fleetPhase : clusterPhase;
    await expect(phase(tab)).toHaveAttribute('data-phase', 'updating-control-plane', { timeout: 60_000 });
    tabs.push({ page: tab, phase });
  }

  await advanceMinutes(server, CLUSTER, 30);
  for (const { page: tab, phase } of tabs) {
    await expect(phase(tab)).toHaveAttribute('data-phase', 'updating-workers', { timeout: 60_000 });
  }
  // The browser opened a stream when the union of the tabs' clusters grew (fleet, then fleet + the cluster), not one
  // per tab.
  expect(streams.length).toBeLessThanOrEqual(3);
  expect(streams.at(-1)).toMatch(/view=summary&detail=update-in-progress$/);
});

test('JSON answers are compressed; the live stream is not, and its first event arrives at once', async () => {
  const get = (path: string, timeoutMs: number) =>
    new Promise<{ status: number; encoding: string | undefined; first: string }>((resolve, reject) => {
      const req = request(`${server.baseURL}${path}`, { headers: { 'accept-encoding': 'gzip, br' } }, (res) => {
        res.once('data', (chunk: Buffer) => {
          resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], first: chunk.toString() });
          req.destroy();
        });
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${path}: nothing within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end();
    });
  const clusters = await get('/api/clusters', 30_000);
  expect(clusters.status).toBe(200);
  expect(['gzip', 'br']).toContain(clusters.encoding);
  // encoded once: one decoding gives the list (its route compresses it, and Next must not compress it again)
  const list = (await (
    await fetch(`${server.baseURL}/api/clusters`, { headers: { 'accept-encoding': 'gzip' } })
  ).json()) as {
    clusters: { id: string }[];
  };
  expect(list.clusters.map((row) => row.id)).toContain(CLUSTER);
  const page = await get('/', 30_000);
  expect(['gzip', 'br']).toContain(page.encoding);
  const stream = await get(`/api/stream?clusters=${CLUSTER}`, 10_000);
  expect(stream.encoding).toBeUndefined();
  expect(stream.first).toContain('retry:');
});
