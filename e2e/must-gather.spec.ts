import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { dumpScenario } from '@/server/simulator/must-gather-writer';
import { catalogdRolloutScenario } from '@/server/simulator/scenarios/catalogd-rollout';
import { test, expect } from './fixtures';
import { MustGatherPage } from './pages/must-gather-page';
import { buildArchive, files } from './support/must-gather-archive';

/** klog lines as operators write them, with the request ids and durations that keep real logs from compressing well. */
function logLines(pod: string, bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const at = new Date(Date.UTC(2026, 10, 20, 10, 0, 0, i * 137)).toISOString();
    const request = randomBytes(8).toString('hex');
    const trace = randomBytes(18).toString('base64');
    const line =
      `I${at.slice(5, 7)}${at.slice(8, 10)} ${at.slice(11, 23)}000       1 controller.go:${100 + (i % 400)}] ` +
      `"Reconciled" pod="${pod}" request=${request} trace=${trace} duration="${(i % 977) / 10}ms"\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join(''));
}

/**
 * A real-shaped must-gather of about `megabytes` compressed: the embedded catalogd-rollout cluster as `oc adm
 * must-gather` writes it, each pod padded with a sidecar's log (what makes real must-gathers large).
 */
async function buildLargeArchive(out: string, megabytes: number): Promise<void> {
  const dumped = join(dir, 'large');
  await dumpScenario(catalogdRolloutScenario, { dir: dumped });
  const all = files(dumped);
  const pods = all.filter((path) => basename(dirname(dirname(path))) === 'pods' && path.endsWith('.yaml'));
  // Klog lines with random ids and traces compress a little under 4:1.
  const perPod = Math.ceil((megabytes * 1024 * 1024 * 4) / pods.length);
  const pack = tarPack();
  const written = pipeline(pack, createGzip(), createWriteStream(out));
  const add = (name: string, body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      pack.entry({ name: `must-gather.local.77/${name}` }, body, (error) => (error ? reject(error) : resolve()));
    });
  for (const path of all) await add(relative(dumped, path).split(sep).join('/'), readFileSync(path));
  for (const pod of pods) {
    const podDir = relative(dumped, dirname(pod)).split(sep).join('/');
    await add(`${podDir}/sidecar/sidecar/logs/current.log`, logLines(basename(pod, '.yaml'), perPod));
  }
  pack.finalize();
  await written;
}

let dir: string;
let archive: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'e2e-must-gather-'));
  archive = join(dir, 'must-gather-azure-4.8.11.tar.gz');
  await buildArchive(archive);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('uploads a must-gather archive and opens it in the cluster view', async ({ page }) => {
  const mustGather = new MustGatherPage(page);
  await mustGather.goto();
  await mustGather.watchProgress();
  await mustGather.upload(archive);
  await mustGather.expectResult();
  expect(await mustGather.maxProgress()).toBe(100);

  await expect(mustGather.source).toContainText('must-gather-azure-4.8.11.tar.gz');
  await expect(page.getByTestId('current-version')).toHaveText('4.8.11');
  await expect(page.getByTestId('operator-counts')).toContainText('31 of 31 updated');
  await expect(page.locator('[data-testid="finding"][data-detector="update-progress"]')).toBeVisible();
  await expect(page.locator('[data-testid="finding"][data-detector="pod-setup-latency"]')).toBeVisible();
  await expect(page.getByTestId('stream-status')).toHaveCount(0);

  // The result is a shareable read-only link while the server keeps it, and can be frozen into an incident.
  await page.reload();
  await expect(page.getByTestId('current-version')).toHaveText('4.8.11');
  await page.getByRole('button', { name: 'Create incident' }).click();
  await expect(page.getByTestId('incident-link')).toHaveAttribute('href', /^\/incidents\/[A-Za-z0-9_-]+$/);
});

test("uploads a 30 MB must-gather past the proxy's default body limit and analyzes it", async ({ page }) => {
  test.setTimeout(180_000);
  const large = join(dir, 'must-gather-catalogd-rollout.tar.gz');
  await buildLargeArchive(large, 30);
  expect(statSync(large).size).toBeGreaterThan(25 * 1024 * 1024);
  const mustGather = new MustGatherPage(page);
  await mustGather.goto();
  await mustGather.upload(large);
  await mustGather.expectResult();
  await expect(mustGather.source).toContainText('must-gather-catalogd-rollout.tar.gz');
  await expect(page.locator('[data-testid="finding"]').first()).toBeVisible();
});

test.describe('refusals', () => {
  test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

  test('a path outside the must-gather directory is refused with a clear error', async ({ page }) => {
    const mustGather = new MustGatherPage(page);
    await mustGather.goto();
    await mustGather.openPath('../../etc');
    await expect(mustGather.error).toContainText("only paths in the server's must-gather directory");
    await expect(page).toHaveURL(/\/must-gather$/);
  });

  test('a cross-site upload is refused with 403', async ({ request }) => {
    const response = await request.post('/api/must-gather?name=x.tar.gz', {
      headers: {
        'content-type': 'application/octet-stream',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      data: Buffer.from('x'),
    });
    expect(response.status()).toBe(403);
  });
});
