import { describe, expect, it } from 'vitest';
import nextConfig from '@/next.config';
import { MUST_GATHER_MAX_UPLOAD_BYTES } from '@/lib/api/must-gather-dto';

describe('the body size the proxy lets through', () => {
  it('exceeds the largest upload by more than a chunk, so the route, not the proxy, refuses bigger ones', () => {
    const limit = nextConfig.experimental?.proxyClientMaxBodySize;
    expect(typeof limit).toBe('number');
    expect(limit as number).toBeGreaterThanOrEqual(MUST_GATHER_MAX_UPLOAD_BYTES + 64 * 1024);
  });
});
