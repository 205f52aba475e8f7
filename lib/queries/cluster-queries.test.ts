import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';
import { clusterQueries, retryTransient } from './cluster-queries';

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const summary = {
  id: 'steady',
  name: 'steady',
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity: 'ok',
  findingCounts: { critical: 0, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone',
};

afterEach(() => vi.unstubAllGlobals());

describe('clusterQueries', () => {
  it('builds hierarchical keys under the cluster detail key', () => {
    expect(clusterQueries.list().queryKey).toEqual(['clusters', 'list']);
    expect(clusterQueries.health('a').queryKey).toEqual(['clusters', 'detail', 'a', 'health']);
    expect(clusterQueries.series('a').queryKey).toEqual(['clusters', 'detail', 'a', 'series']);
    expect(clusterQueries.series('a').queryKey.slice(0, 3)).toEqual(clusterQueries.detail('a'));
  });

  it('fetches and parses the cluster list', async () => {
    const fetchMock = vi.fn(async () => reply(200, { clusters: [summary] }));
    vi.stubGlobal('fetch', fetchMock);
    const data = await new QueryClient().fetchQuery(clusterQueries.list());
    expect(data.clusters[0].id).toBe('steady');
    expect(fetchMock).toHaveBeenCalledWith('/api/clusters', expect.anything());
  });

  it('encodes the cluster id into the path', async () => {
    const fetchMock = vi.fn(async () => reply(404, { error: { code: 'not_found', message: 'no cluster "a/b"' } }));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await expect(client.fetchQuery({ ...clusterQueries.health('a/b'), retry: false })).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 'not_found',
      message: 'no cluster "a/b"',
    });
    expect(fetchMock).toHaveBeenCalledWith('/api/clusters/a%2Fb/health', expect.anything());
  });

  it('rejects replies that break the contract', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => reply(200, { clusters: [{ id: 1 }] })),
    );
    await expect(new QueryClient().fetchQuery({ ...clusterQueries.list(), retry: false })).rejects.toMatchObject({
      code: 'bad_response',
    });
  });

  it('turns an error reply without the error body into an ApiError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('oops', { status: 502 })),
    );
    const err = await new QueryClient().fetchQuery({ ...clusterQueries.series('x'), retry: false }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 502, code: 'http_error' });
  });
});

describe('retryTransient', () => {
  it('does not retry client errors but retries server and network errors up to 3 times', () => {
    expect(retryTransient(0, new ApiError('x', 404, 'not_found'))).toBe(false);
    expect(retryTransient(0, new ApiError('x', 503, 'unavailable'))).toBe(true);
    expect(retryTransient(0, new ApiError('x', 0, 'network'))).toBe(true);
    expect(retryTransient(3, new Error('x'))).toBe(false);
  });
});
