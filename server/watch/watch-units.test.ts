import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { Backoff, type ReflectorClock } from './backoff';
import { apiErrorFromResponse, apiErrorFromStatus, parseRetryAfter } from './kube-errors';
import { ObjectCache } from './object-cache';
import { decodeWatchLine } from './watch-decoder';
import { refusesWatchList } from './watch-list';

function fakeClock(random = 0): ReflectorClock & { t: number } {
  return {
    t: 0,
    now() {
      return this.t;
    },
    setTimeout: () => () => undefined,
    random: () => random,
  };
}

describe('Backoff', () => {
  it('doubles from 0.8 s to the 30 s cap and starts over after 2 minutes without failure', () => {
    const clock = fakeClock(0);
    const backoff = new Backoff(clock);
    const delays = Array.from({ length: 8 }, () => backoff.next());
    expect(delays).toEqual([800, 1_600, 3_200, 6_400, 12_800, 25_600, 30_000, 30_000]);
    clock.t += 120_000;
    expect(backoff.next()).toBe(800);
  });

  it('jitter only shortens a delay, by at most half by default', () => {
    const backoff = new Backoff(fakeClock(0.999), { initialMs: 1_000, maxMs: 30_000 });
    expect(backoff.next()).toBeGreaterThanOrEqual(500);
    expect(backoff.slow()).toBeLessThanOrEqual(30_000);
    expect(backoff.slow()).toBeGreaterThanOrEqual(15_000);
  });
});

describe('API errors', () => {
  it('reads Retry-After from the header or from Status details', () => {
    const status = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      code: 429,
      reason: 'TooManyRequests',
      message: 'slow down',
      details: { retryAfterSeconds: 7 },
    });
    expect(apiErrorFromResponse(429, 'Too Many Requests', status, '3')).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      retryAfterSeconds: 3,
      message: 'slow down',
    });
    expect(apiErrorFromResponse(429, 'Too Many Requests', status).retryAfterSeconds).toBe(7);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 0)).toBe(10);
  });

  it('maps non-Status bodies and in-stream ERROR events', () => {
    const proxy = apiErrorFromResponse(502, 'Bad Gateway', '<html>bad gateway</html>');
    expect(proxy).toMatchObject({ code: 502, reason: 'BadGateway', message: '502 Bad Gateway' });
    expect(proxy).toBeInstanceOf(Error);
    expect(
      apiErrorFromStatus({ kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' })
        .isExpired,
    ).toBe(true);
  });
});

describe('watch lines', () => {
  it('accepts watch events and rejects everything else with a reason', () => {
    expect(decodeWatchLine('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}').ok).toBe(true);
    expect(decodeWatchLine('{"type":"ADDED","object":{"metadata":{}}}')).toMatchObject({ ok: false });
    expect(decodeWatchLine('{"type":"ADDED"')).toMatchObject({
      ok: false,
      message: expect.stringContaining('malformed JSON'),
    });
    expect(decodeWatchLine('[1]')).toMatchObject({ ok: false });
  });
});

describe('ObjectCache', () => {
  const obj = (name: string, rv: string, uid = name): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', resourceVersion: rv, uid },
  });

  it('replaces content and reports deletes, adds, updates and recreations', () => {
    const cache = new ObjectCache();
    for (const o of [obj('a', '1'), obj('b', '1'), obj('c', '1'), obj('d', '1')]) cache.upsert(o);
    const version = cache.version;
    const diff = cache.replace([obj('b', '1'), obj('c', '2'), obj('d', '5', 'd2'), obj('e', '1')]);
    expect(diff.deleted.map((o) => o.metadata.name)).toEqual(['a', 'd']);
    expect(diff.added.map((o) => o.metadata.name)).toEqual(['d', 'e']);
    expect(diff.modified.map((m) => m.object.metadata.name)).toEqual(['c']);
    expect(cache.keys()).toEqual(['ns/b', 'ns/c', 'ns/d', 'ns/e']);
    expect(cache.version).toBeGreaterThan(version);
    expect(cache.getByName('d', 'ns')?.metadata.uid).toBe('d2');
  });

  it('lists the same array until something changes, then a fresh one', () => {
    const cache = new ObjectCache();
    cache.upsert(obj('a', '1'));
    const first = cache.list();
    expect(cache.list()).toBe(first);
    cache.upsert(obj('b', '1'));
    const second = cache.list();
    expect(second).not.toBe(first);
    expect(first.map((o) => o.metadata.name)).toEqual(['a']);
    expect(second.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    cache.delete('ns/a');
    expect(cache.list().map((o) => o.metadata.name)).toEqual(['b']);
    cache.replace([obj('c', '1')]);
    expect(cache.list().map((o) => o.metadata.name)).toEqual(['c']);
  });
});

describe('WatchList refusals', () => {
  const status = (code: number, reason: string, message: string) =>
    apiErrorFromResponse(code, '', JSON.stringify({ kind: 'Status', code, reason, message }));

  it('a 422, or a 400 naming the WatchList parameters, means list and watch instead; other errors do not', () => {
    expect(refusesWatchList(status(422, 'Invalid', 'ListOptions.meta.k8s.io "" is invalid'))).toBe(true);
    expect(refusesWatchList(status(400, 'BadRequest', 'resourceVersionMatch is forbidden for watch'))).toBe(true);
    expect(refusesWatchList(status(400, 'BadRequest', 'unable to parse requirement: bad=selector'))).toBe(false);
    for (const code of [401, 403, 404, 410, 429, 500]) expect(refusesWatchList(status(code, '', 'no'))).toBe(false);
    expect(refusesWatchList(new Error('socket hang up'))).toBe(false);
  });
});
