import { describe, expect, it } from 'vitest';
import { crossSiteReason, rejectCrossSite } from './same-origin';

const post = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1:3000/api/incidents', {
    method: 'POST',
    headers: { host: '127.0.0.1:3000', ...headers },
  });

describe('same-origin check for state-changing routes', () => {
  it('accepts same-origin browser requests and header-less clients', () => {
    expect(crossSiteReason(post({ origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' }))).toBeNull();
    expect(crossSiteReason(post({}))).toBeNull();
  });

  it('rejects a foreign Origin, a null Origin and cross-site / same-site fetch metadata with 403 JSON', async () => {
    expect(crossSiteReason(post({ origin: 'https://evil.example' }))).toContain('is not this server');
    expect(crossSiteReason(post({ origin: 'null' }))).not.toBeNull();
    expect(crossSiteReason(post({ 'sec-fetch-site': 'cross-site' }))).toBe('Sec-Fetch-Site is cross-site');
    expect(crossSiteReason(post({ 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:3000' }))).toBe(
      'Sec-Fetch-Site is same-site',
    );
    const response = rejectCrossSite(post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }));
    expect(response?.status).toBe(403);
    expect(await response?.json()).toMatchObject({ error: { code: 'cross_site_request' } });
  });
});
