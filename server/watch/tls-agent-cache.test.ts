import { describe, expect, it } from 'vitest';
import { TlsAgentCache } from './tls-agent-cache';

// No real certificate is needed: the cache fingerprints and compares the material it is given (a CA that does not
// parse as a certificate is skipped by the TLS context, as OpenSSL does).
const pem = (text: string) => Buffer.from(`-----BEGIN CERTIFICATE-----\n${text}\n-----END CERTIFICATE-----\n`);

describe('TlsAgentCache', () => {
  it('keeps its agent and identity for the same material, also when it comes as new buffers of equal bytes', () => {
    const cache = new TlsAgentCache();
    const agent = cache.agentFor('https:', { ca: pem('AAAA'), rejectUnauthorized: true });
    const { identity } = cache.connectionOptions('https:', { ca: pem('AAAA'), rejectUnauthorized: true });
    expect(cache.agentFor('https:', { ca: pem('AAAA'), rejectUnauthorized: true })).toBe(agent);
    expect(cache.agentFor('https:', { ca: [pem('AAAA')], rejectUnauthorized: true })).toBe(agent);
    expect(cache.connectionOptions('https:', { ca: pem('AAAA'), rejectUnauthorized: true }).identity).toBe(identity);
    cache.close();
  });

  it('takes a new agent and identity when any part of the material changes, and the first back when it returns', () => {
    const cache = new TlsAgentCache();
    const base = { ca: pem('AAAA'), rejectUnauthorized: true };
    const { identity } = cache.connectionOptions('https:', base);
    for (const changed of [
      { ...base, ca: pem('BBBB') },
      { ...base, ca: [pem('AAAA'), pem('BBBB')] },
      { ...base, ca: [pem('AAAA'), pem('AAAA')] },
      { ...base, rejectUnauthorized: false },
      { ...base, servername: 'api.example' },
    ]) {
      const before = cache.agentFor('https:', base);
      expect(cache.agentFor('https:', changed)).not.toBe(before);
      expect(cache.connectionOptions('https:', changed).identity).not.toBe(identity);
      expect(cache.connectionOptions('https:', { ...base, ca: pem('AAAA') }).identity).toBe(identity);
    }
    const https = cache.agentFor('https:', base);
    expect(cache.agentFor('http:', base)).not.toBe(https);
    cache.close();
  });
});
