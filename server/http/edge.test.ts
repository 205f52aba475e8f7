import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { EDGE_HEADER_PREFIX, edgeRequest, runEdge } from './edge';

/** The request headers Next hands the route after `NextResponse.next({ request: { headers } })`. */
function forwarded(response: Response): Record<string, string> {
  const names = response.headers.get('x-middleware-override-headers')?.split(',') ?? [];
  return Object.fromEntries(names.map((name) => [name, response.headers.get(`x-middleware-request-${name}`) ?? '']));
}

describe('runEdge', () => {
  const forged = { [`${EDGE_HEADER_PREFIX}viewer`]: 'forged', [`${EDGE_HEADER_PREFIX}other`]: 'forged', accept: 'a/b' };

  it('drops every header under the edge prefix a client sent', async () => {
    const request = new NextRequest('http://localhost/api/clusters', { headers: forged });
    const headers = forwarded(await runEdge(edgeRequest(request, false), []));
    expect(headers.accept).toBe('a/b');
    expect(Object.keys(headers).filter((name) => name.startsWith(EDGE_HEADER_PREFIX))).toEqual([]);
  });

  it("forwards the steps' own headers under the prefix, and only those", async () => {
    const request = new NextRequest('http://localhost/api/clusters', { headers: forged });
    const headers = forwarded(
      await runEdge(edgeRequest(request, false), [
        (edge) => {
          edge.forward.set(`${EDGE_HEADER_PREFIX}viewer`, 'from-the-edge');
          edge.forward.set('x-not-ours', 'dropped');
          return undefined;
        },
      ]),
    );
    expect(headers[`${EDGE_HEADER_PREFIX}viewer`]).toBe('from-the-edge');
    expect(headers[`${EDGE_HEADER_PREFIX}other`]).toBeUndefined();
    expect(headers['x-not-ours']).toBeUndefined();
  });
});
