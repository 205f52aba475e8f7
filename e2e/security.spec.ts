import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect, test } from './fixtures';

/** Every route of the app, from the filesystem: page and route-handler paths with their dynamic segments. */
function routes(): { path: string; api: boolean }[] {
  const found: { path: string; api: boolean }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === 'page.tsx' || name === 'route.ts') {
        const path = `/${relative('app', dir).split(sep).filter(Boolean).join('/')}`;
        found.push({ path, api: path.startsWith('/api/') || path === '/api' });
      }
    }
  };
  walk('app');
  return found;
}

const HOSTILE = ['%E0%A4%A', '%00', 'a%00b', '%E2%80%AEevil', '%ED%A0%80', 'x'.repeat(1100), '%1B%5B31m'];

test.describe('security', () => {
  test('every response carries the security headers, with a fresh script nonce per page', async ({ request }) => {
    const first = await request.get('/');
    const second = await request.get('/');
    const nonce = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
    // Browsers ask for /favicon.ico on their own whenever a page's icon link arrives late (streamed metadata).
    const favicon = await request.get('/favicon.ico');
    expect(favicon.status(), 'GET /favicon.ico').toBe(200);
    expect(favicon.headers()['content-type']).toBe('image/x-icon');
    for (const response of [
      first,
      second,
      await request.get('/api/clusters'),
      await request.get('/healthz'),
      favicon,
    ]) {
      const headers = response.headers();
      const csp = headers['content-security-policy'] ?? '';
      const script = csp.split('; ').find((d) => d.startsWith('script-src')) ?? '';
      expect(script).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
      expect(script).not.toContain('unsafe-inline');
      for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
        expect(csp).toContain(directive);
      expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
      expect(headers['permissions-policy']).toContain('camera=()');
      expect(headers['strict-transport-security']).toBeUndefined();
    }
    expect(nonce(first.headers()['content-security-policy'])).not.toBe(
      nonce(second.headers()['content-security-policy']),
    );
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce(first.headers()['content-security-policy'])}"`);
    expect(
      (await request.get('/', { headers: { 'x-forwarded-proto': 'https' } })).headers()['strict-transport-security'],
    ).toMatch(/max-age=/);
  });

  test('malformed, overlong or control-character URLs get 400 on every route, never 5xx', async ({ request }) => {
    const all = routes();
    expect(all.length).toBeGreaterThan(15);
    for (const { path, api } of all) {
      const segments = path.split('/');
      const dynamic = segments.some((s) => s.startsWith('['));
      for (const bad of HOSTILE) {
        const targets = [
          // in a dynamic segment (or appended to a static route), and in a query parameter
          dynamic ? segments.map((s) => (s.startsWith('[') ? bad : s)).join('/') : `${path === '/' ? '' : path}/${bad}`,
          `${segments.map((s) => (s.startsWith('[') ? 'steady' : s)).join('/') || '/'}?q=${bad}`,
        ];
        for (const target of targets) {
          const response = await request.get(target, { maxRedirects: 0 });
          const label = `${target.slice(0, 80)} → ${response.status()}`;
          expect(response.status(), label).toBe(400);
          const type = response.headers()['content-type'] ?? '';
          if (api) {
            expect(type, label).toContain('application/json');
            expect(await response.json(), label).toMatchObject({ error: { code: 'bad_request' } });
          } else if (!path.startsWith('/healthz') && !path.startsWith('/readyz') && !path.startsWith('/metrics')) {
            expect(type, label).toContain('text/html');
            expect(await response.text(), label).toContain('Bad request');
          }
        }
      }
    }
  });
});

test.describe('the bad-request page', () => {
  // The browser itself logs the 400 of the document.
  test.use({ allowedConsoleErrors: [/status of 400/] });

  test('is the product page and obeys the policy', async ({ page }) => {
    const response = await page.goto('/clusters/%E0%A4%A');
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('heading', { name: 'Bad request' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the fleet' })).toHaveAttribute('href', '/');
  });
});
