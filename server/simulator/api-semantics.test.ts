import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeList, KubeObject, WatchEvent } from '@/lib/k8s/types';
import { installBaseCrds } from './crds';
import { startTestServer, type TestServer } from './test-harness';
import { testClusterVersion, testNamespace, testPod } from './test-objects';
import { openStream } from './watch-client';

describe('API semantics over HTTPS', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ bookmarkIntervalMs: 150 });
    installBaseCrds(t.cluster.client, { clusterVersionRelease: '4.16' });
    t.cluster.client.create('clusterversions', testClusterVersion('4.16.3'));
    t.cluster.client.create('namespaces', testNamespace('page'));
    for (let i = 0; i < 25; i++)
      t.cluster.client.create(
        'pods',
        testPod('page', `p-${String(i).padStart(2, '0')}`, { labels: { app: i % 2 ? 'odd' : 'even' } }),
      );
  });
  afterAll(async () => t?.close());

  const json = async <T>(method: string, path: string, body?: unknown, contentType = 'application/json') => {
    const res = await t.raw(method, path, { body: body === undefined ? undefined : JSON.stringify(body), contentType });
    return { status: res.status, body: JSON.parse(res.body) as T, headers: res.headers };
  };

  it('pages a list with limit/continue and remainingItemCount, and expires continue tokens after compaction', async () => {
    const names: string[] = [];
    let path = '/api/v1/namespaces/page/pods?limit=10';
    const first = await json<KubeList>('GET', path);
    expect(first.body.metadata.remainingItemCount).toBe(15);
    let page = first.body;
    names.push(...page.items.map((item) => item.metadata.name));
    while (page.metadata.continue) {
      path = `/api/v1/namespaces/page/pods?limit=10&continue=${encodeURIComponent(page.metadata.continue)}`;
      page = (await json<KubeList>('GET', path)).body;
      expect(page.metadata.resourceVersion).toBe(first.body.metadata.resourceVersion);
      names.push(...page.items.map((item) => item.metadata.name));
    }
    expect(names).toHaveLength(25);
    expect(new Set(names).size).toBe(25);
    const again = await json<KubeList>('GET', '/api/v1/pods?limit=5&labelSelector=app%3Dodd');
    expect(again.body.items.every((item) => item.metadata.labels?.app === 'odd')).toBe(true);
    expect(again.body.metadata.remainingItemCount).toBeUndefined();
    const token = again.body.metadata.continue as string;
    t.cluster.client.create('pods', testPod('page', 'after-token'));
    await t.raw('POST', '/__sim/compact');
    const expired = await json<{ reason: string; code: number; message: string }>(
      'GET',
      `/api/v1/pods?limit=5&labelSelector=app%3Dodd&continue=${encodeURIComponent(token)}`,
    );
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ reason: 'Expired', code: 410 });
    expect(expired.body.message).toMatch(/^The provided continue parameter is too old/);
  });

  it('resumes a watch from a resourceVersion, sends bookmarks, and ends at timeoutSeconds', async () => {
    const list = (await json<KubeList>('GET', '/api/v1/namespaces/page/pods')).body;
    const rv = list.metadata.resourceVersion as string;
    t.cluster.client.create('pods', testPod('page', 'while-away'));
    t.cluster.client.delete('pods', 'p-00', 'page');
    const started = Date.now();
    const watch = openStream(
      t.served,
      `/api/v1/namespaces/page/pods?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=1`,
    );
    expect(await watch.status).toBe(200);
    expect((await watch.headers)['content-type']).toBe('application/json');
    await watch.waitFor((lines) => lines.length >= 2);
    const events = watch.lines as WatchEvent[];
    expect(events.slice(0, 2).map((event) => `${event.type} ${event.object.metadata.name}`)).toEqual([
      'ADDED while-away',
      'DELETED p-00',
    ]);
    expect(events[0].object).toMatchObject({ kind: 'Pod', apiVersion: 'v1' });
    t.cluster.client.patch('pods', 'p-01', { metadata: { labels: { touched: 'yes' } } }, { namespace: 'page' });
    await watch.waitFor((lines) => (lines as WatchEvent[]).some((event) => event.type === 'MODIFIED'));
    await watch.waitFor((lines) => (lines as WatchEvent[]).some((event) => event.type === 'BOOKMARK'));
    const bookmark = (watch.lines as WatchEvent[]).find((event) => event.type === 'BOOKMARK') as WatchEvent;
    expect(bookmark.object).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(t.cluster.store.currentRv()) },
    });
    expect(await watch.ended).toEqual({});
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('sends synthetic ADDED events for RV 0 and ADDED/DELETED for selector transitions', async () => {
    const watch = openStream(
      t.served,
      '/api/v1/namespaces/page/pods?watch=1&resourceVersion=0&labelSelector=app%3Deven',
    );
    await watch.waitFor((lines) => lines.length >= 12);
    expect((watch.lines as WatchEvent[]).every((event) => event.type === 'ADDED')).toBe(true);
    t.cluster.client.patch('pods', 'p-02', { metadata: { labels: { app: 'odd' } } }, { namespace: 'page' });
    t.cluster.client.patch('pods', 'p-03', { metadata: { labels: { app: 'even' } } }, { namespace: 'page' });
    await watch.waitFor((lines) => lines.length >= 14);
    expect(
      (watch.lines as WatchEvent[]).slice(-2).map((event) => `${event.type} ${event.object.metadata.name}`),
    ).toEqual(['DELETED p-02', 'ADDED p-03']);
    watch.abort();
  });

  it('answers a too-old resourceVersion after compaction with an in-stream 410 ERROR', async () => {
    const old = String(t.cluster.store.currentRv());
    t.cluster.client.create('pods', testPod('page', 'before-compaction'));
    await t.raw('POST', '/__sim/compact');
    const watch = openStream(t.served, `/api/v1/pods?watch=true&resourceVersion=${old}`);
    expect(await watch.status).toBe(200);
    await watch.ended;
    expect(watch.lines).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: expect.stringMatching(/^too old resource version: /),
        }),
      },
    ]);
  });

  it('tracks generation and managedFields, ignores status on main writes, and honours dryRun', async () => {
    const path = '/apis/config.openshift.io/v1/clusterversions/version';
    const before = (await json<KubeObject>('GET', path)).body;
    const dry = await json<KubeObject>(
      'PATCH',
      `${path}?dryRun=All&fieldManager=kubectl-patch`,
      { spec: { channel: 'candidate-4.17' } },
      'application/merge-patch+json',
    );
    expect((dry.body.spec as { channel: string }).channel).toBe('candidate-4.17');
    expect((await json<KubeObject>('GET', path)).body.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const patched = await json<KubeObject>(
      'PATCH',
      `${path}?fieldManager=kubectl-patch`,
      { spec: { channel: 'fast-4.16' }, status: { versionHash: 'ignored' } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.generation).toBe((before.metadata.generation ?? 0) + 1);
    expect((patched.body.status as { versionHash: string }).versionHash).toBe('abcdefgh');
    expect(patched.body.metadata.managedFields?.find((entry) => entry.manager === 'kubectl-patch')).toMatchObject({
      operation: 'Update',
      apiVersion: 'config.openshift.io/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:spec': { 'f:channel': {}, 'f:clusterID': {} } },
    });
    const status = await json<KubeObject>(
      'PATCH',
      `${path}/status?fieldManager=cvo`,
      [{ op: 'replace', path: '/status/versionHash', value: 'json-patched' }],
      'application/json-patch+json',
    );
    expect((status.body.status as { versionHash: string }).versionHash).toBe('json-patched');
    expect(status.body.metadata.generation).toBe(patched.body.metadata.generation);
    expect(status.body.metadata.managedFields?.find((entry) => entry.manager === 'cvo')).toMatchObject({
      subresource: 'status',
    });
  });

  it('merges strategic patches by name/type and rejects stale PUTs with 409', async () => {
    const path = '/api/v1/namespaces/page/pods/p-05';
    const pod = (await json<KubeObject>('GET', path)).body;
    const patched = await json<KubeObject>(
      'PATCH',
      path,
      { spec: { containers: [{ name: 'side', image: 'sidecar' }] } },
      'application/strategic-merge-patch+json',
    );
    expect((patched.body.spec as { containers: { name: string }[] }).containers.map((c) => c.name)).toEqual([
      'main',
      'side',
    ]);
    const status = await json<KubeObject>(
      'PATCH',
      `${path}/status`,
      { status: { conditions: [{ type: 'Ready', status: 'False' }] } },
      'application/strategic-merge-patch+json',
    );
    const conditions = (status.body.status as { conditions: { type: string; status: string }[] }).conditions;
    expect(conditions.map((c) => `${c.type}=${c.status}`)).toEqual(['Ready=False', 'PodScheduled=True']);
    const stale = await json<{ code: number; reason: string; message: string }>('PUT', path, pod);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on pods "p-05": the object has been modified; please apply your changes to the latest version and try again',
    });
    const created = await json<KubeObject>('POST', '/api/v1/namespaces/page/pods', {
      ...testPod('page', ''),
      metadata: { generateName: 'gen-', namespace: 'page' },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    const exists = await json<{ reason: string }>('POST', '/api/v1/namespaces/page/pods', testPod('page', 'p-05'));
    expect(exists.status).toBe(409);
    expect(exists.body.reason).toBe('AlreadyExists');
  });

  it('moves the virtual clock through /__sim/advance and reports live requests in /__sim/stats', async () => {
    const before = t.cluster.clock.now();
    const advanced = await t.raw('POST', '/__sim/advance?by=90s');
    expect(advanced.status).toBe(200);
    expect(t.cluster.clock.now() - before).toBe(90_000);
    const watch = openStream(t.served, '/apis/config.openshift.io/v1/clusterversions?watch=true');
    await watch.status;
    const stats = JSON.parse((await t.raw('GET', '/__sim/stats')).body) as {
      activeRequests: { method: string; path: string; query: string }[];
      requests: Record<string, number>;
    };
    expect(
      stats.activeRequests.filter(
        (r) => r.path === '/apis/config.openshift.io/v1/clusterversions' && r.query.includes('watch=true'),
      ),
    ).toHaveLength(1);
    expect(stats.requests['clusterversions:watch']).toBeGreaterThanOrEqual(1);
    watch.abort();
    expect((await t.raw('POST', '/__sim/advance?by=soon')).status).toBe(400);
    expect((await t.raw('GET', '/__sim/stats', { identity: 'reader' })).status).toBe(403);
  });
});
