import { describe, expect, it } from 'vitest';
import { SUPPORTED_METHODS } from '@/server/http/unsupported-methods';
import * as route from './route';

describe('an /api path no route serves', () => {
  it('answers JSON 404 in the shape of every API error, for every method the dashboard answers', async () => {
    for (const method of SUPPORTED_METHODS) {
      const handler = route[method as keyof typeof route];
      expect(typeof handler, method).toBe('function');
      if (typeof handler !== 'function') continue;
      const response = await handler(new Request('http://localhost/api/no/such/thing?x=1', { method }));
      expect(response.status, method).toBe(404);
      expect(response.headers.get('content-type'), method).toContain('application/json');
      expect(await response.json(), method).toEqual({
        error: { code: 'not_found', message: `no API at ${method} /api/no/such/thing` },
      });
    }
  });
});
