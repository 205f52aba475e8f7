import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from './security-headers';

describe('security headers', () => {
  it('allows scripts only with the nonce, never inline or eval in production', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc', tls: false });
    const script = csp.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(script).toBe("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(script).not.toContain('unsafe-inline');
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
      expect(csp).toContain(directive);
    expect(contentSecurityPolicy({ nonce: 'abc', tls: false, dev: true })).toContain("'unsafe-eval'");
  });
  it('adds HSTS only over TLS', () => {
    expect(securityHeaders({ nonce: 'n', tls: false })['Strict-Transport-Security']).toBeUndefined();
    expect(securityHeaders({ nonce: 'n', tls: true })['Strict-Transport-Security']).toMatch(/max-age=\d+/);
    expect(securityHeaders({ nonce: 'n', tls: false })).toMatchObject({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });
});
