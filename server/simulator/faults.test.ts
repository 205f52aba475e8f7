import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KubeList, WatchEvent } from '@/lib/k8s/types';
import { installBaseCrds } from './crds';
import { startTestServer, type TestServer } from './test-harness';
import { testClusterVersion, testNamespace, testPod } from './test-objects';
import type { FaultRule } from './types';
import { openStream } from './watch-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault injection (R1-R7)', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    installBaseCrds(t.cluster.client, { clusterVersionRelease: '4.16' });
    t.cluster.client.create('clusterversions', testClusterVersion('4.16.3'));
    t.cluster.client.create('namespaces', testNamespace('f'));
    for (let i = 0; i < 12; i++) t.cluster.client.create('pods', testPod('f', `p-${String(i).padStart(2, '0')}`));
  });
  afterEach(async () => {
    await t.raw('DELETE', '/__sim/faults');
  });
  afterAll(async () => t?.close());

  const addFault = async (rule: FaultRule) => {
    const res = await t.raw('POST', '/__sim/faults', { body: JSON.stringify(rule), contentType: 'application/json' });
    expect(res.status).toBe(201);
    return (JSON.parse(res.body) as { id: string }).id;
  };
  const rawError = (path: string) =>
    t.raw('GET', path).then(
      (res) => ({ status: res.status, error: undefined as string | undefined }),
      (error: NodeJS.ErrnoException) => ({ status: 0, error: error.code ?? error.message }),
    );

  it('R1 silence: a watch gets headers and then no bytes, while other resources are unaffected', async () => {
    await addFault({ resource: 'pods', verb: 'watch', kind: 'silence' });
    const watch = openStream(t.served, '/api/v1/pods?watch=true&resourceVersion=0');
    expect(await watch.status).toBe(200);
    t.cluster.client.create('pods', testPod('f', 'during-silence'));
    await sleep(300);
    expect(watch.bytes()).toBe(0);
    const other = openStream(t.served, '/apis/config.openshift.io/v1/clusterversions?watch=true&resourceVersion=0');
    await other.waitFor((lines) => lines.length === 1);
    watch.abort();
    other.abort();
  });

  it('R2 hang: the connection is accepted but headers never come', async () => {
    await addFault({ resource: 'pods', verb: 'list', kind: 'hang' });
    const list = openStream(t.served, '/api/v1/pods?limit=500', { parse: false });
    const status = await Promise.race([list.status, sleep(400).then(() => 'no headers')]);
    expect(status).toBe('no headers');
    list.abort();
  });

  it('R3 close: watches answer 200 and end at once with no events, `count` times', async () => {
    await addFault({ resource: 'clusterversions', verb: 'watch', kind: 'close', count: 3 });
    for (let i = 0; i < 3; i++) {
      const watch = openStream(t.served, '/apis/config.openshift.io/v1/clusterversions?watch=true&resourceVersion=0');
      expect(await watch.status).toBe(200);
      expect(await watch.ended).toEqual({});
      expect(watch.lines).toEqual([]);
    }
    const normal = openStream(t.served, '/apis/config.openshift.io/v1/clusterversions?watch=true&resourceVersion=0');
    await normal.waitFor((lines) => lines.length === 1);
    normal.abort();
  });

  it('R4 expire: 410 as HTTP status on list and as an in-stream ERROR on watch', async () => {
    await addFault({ resource: 'pods', kind: 'expire', count: 2 });
    const list = await t.raw('GET', '/api/v1/pods');
    expect(list.status).toBe(410);
    expect(JSON.parse(list.body)).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    const watch = openStream(t.served, '/api/v1/pods?watch=true&resourceVersion=5');
    expect(await watch.status).toBe(200);
    await watch.ended;
    expect(
      (watch.lines as WatchEvent[]).map((event) => [event.type, (event.object as unknown as { code: number }).code]),
    ).toEqual([['ERROR', 410]]);
  });

  it('R5 a continue token expires on page 3', async () => {
    const page1 = JSON.parse((await t.raw('GET', '/api/v1/pods?limit=4')).body) as KubeList;
    const page2 = JSON.parse(
      (await t.raw('GET', `/api/v1/pods?limit=4&continue=${page1.metadata.continue}`)).body,
    ) as KubeList;
    await addFault({ resource: 'pods', verb: 'list', kind: 'expire', count: 1 });
    const page3 = await t.raw('GET', `/api/v1/pods?limit=4&continue=${page2.metadata.continue}`);
    expect(page3.status).toBe(410);
    expect(JSON.parse(page3.body).message).toMatch(/^The provided continue parameter is too old/);
  });

  it('R6 429 with Retry-After on list and watch', async () => {
    await addFault({ resource: 'pods', kind: 'status', status: 429, retryAfterSeconds: 5 });
    for (const path of ['/api/v1/pods', '/api/v1/pods?watch=true']) {
      const res = await t.raw('GET', path);
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('5');
      expect(JSON.parse(res.body)).toMatchObject({
        reason: 'TooManyRequests',
        code: 429,
        details: { retryAfterSeconds: 5 },
      });
    }
  });

  it('R7 500, ECONNRESET and drop', async () => {
    await addFault({ resource: 'pods', verb: 'list', kind: 'status', status: 500, count: 1 });
    const failed = await t.raw('GET', '/api/v1/pods');
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body)).toMatchObject({ reason: 'InternalError', code: 500 });
    await addFault({ resource: 'pods', verb: 'list', kind: 'reset', count: 1 });
    expect((await rawError('/api/v1/pods')).error).toBe('ECONNRESET');
    await addFault({ resource: 'pods', verb: 'get', kind: 'drop', count: 1 });
    expect((await rawError('/api/v1/namespaces/f/pods/p-01')).status).toBe(0);
    await addFault({ resource: 'pods', verb: 'watch', kind: 'drop', count: 1 });
    const watch = openStream(t.served, '/api/v1/namespaces/f/pods?watch=true&resourceVersion=0');
    expect(await watch.status).toBe(200);
    const ended = await watch.ended;
    expect(ended.error).toBeDefined();
    expect(watch.lines.length).toBeGreaterThan(0);
    expect((await t.raw('GET', '/api/v1/namespaces/f/pods/p-01')).status).toBe(200);
  });

  it('slow delays the response; faults work in-process too', async () => {
    t.cluster.faults.add({ resource: 'clusterversions', verb: 'get', kind: 'slow', delayMs: 300, count: 1 });
    const started = Date.now();
    const res = await t.raw('GET', '/apis/config.openshift.io/v1/clusterversions/version');
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(
      (await t.raw('POST', '/__sim/faults', { body: '{"kind":"explode"}', contentType: 'application/json' })).status,
    ).toBe(400);
  });
});
