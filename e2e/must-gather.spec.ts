import { createWriteStream, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { pack as tarPack } from 'tar-stream';
import { test, expect } from './fixtures';
import { MustGatherPage } from './pages/must-gather-page';

const FIXTURE = 'server/fixtures/must-gather/azure-4.8.11';

function files(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** A .tar.gz of the real 4.8.11 must-gather, as `oc adm must-gather` leaves it (`must-gather.local.<n>/...`). */
async function buildArchive(out: string): Promise<void> {
  const pack = tarPack();
  const written = pipeline(pack, createGzip(), createWriteStream(out));
  for (const path of files(FIXTURE)) {
    const name = `must-gather.local.5125464473519837004/${relative(FIXTURE, path).split(sep).join('/')}`;
    await new Promise<void>((resolve, reject) => pack.entry({ name }, readFileSync(path), (error) => (error ? reject(error) : resolve())));
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

test.describe('refusals', () => {
  test.use({ allowedConsoleErrors: [/status of 4\d\d/] });

  test('a path outside the must-gather directory is refused with a clear error', async ({ page }) => {
    const mustGather = new MustGatherPage(page);
    await mustGather.goto();
    await mustGather.openPath('../../etc');
    await expect(mustGather.error).toContainText('only paths under');
    await expect(page).toHaveURL(/\/must-gather$/);
  });

  test('a cross-site upload is refused with 403', async ({ request }) => {
    const response = await request.post('/api/must-gather?name=x.tar.gz', {
      headers: { 'content-type': 'application/octet-stream', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      data: Buffer.from('x'),
    });
    expect(response.status()).toBe(403);
  });
});
