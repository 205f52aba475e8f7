import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { servingCertificate } from '@/server/simulator/tls';
import { testPod } from '@/server/simulator/test-objects';
import { KubeTransport } from './kube-transport';
import type { ReflectorDiagnostic } from './reflector-types';
import {
  observe,
  sleep,
  startSim,
  traceStatus,
  trackUnhandledRejections,
  until,
  type SimHarness,
} from '@/server/testing/reflector-harness';

const rejections = trackUnhandledRejections();
afterAll(() => {
  rejections.dispose();
  expect(rejections.seen).toEqual([]);
});

describe('throttling and auth', () => {
  let sim: SimHarness;
  beforeEach(async () => {
    sim = await startSim({ pods: 3 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('R6: 429 with Retry-After on the list waits at least that long, shows the wait, and stays alive', async () => {
    sim.fault({ resource: 'pods', verb: 'list', kind: 'status', status: 429, retryAfterSeconds: 1, count: 1 });
    const o = observe(sim.transport);
    o.reflector.start();
    await until('the 429 to show', () => o.reflector.state().error?.code === 429);
    const waiting = o.reflector.state();
    expect(waiting.status).toBe('pending');
    expect(waiting.error?.reason).toBe('TooManyRequests');
    expect(Date.parse(waiting.retryAt ?? '')).toBeGreaterThanOrEqual(o.lists()[0].at + 1_000);
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    expect(o.lists()[1].at - o.lists()[0].at).toBeGreaterThanOrEqual(1_000);
    o.reflector.stop();
  });

  it('R6: 429 with Retry-After on the watch retries from the same RV after the wait, without a relist, and stays synced while its data is fresh', async () => {
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'status', status: 429, retryAfterSeconds: 1, count: 2 });
    const o = observe(sim.transport, { staleAfterMs: 10_000 });
    const trace = traceStatus(o.reflector);
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    await until('the 429 to show', () => o.reflector.state().error?.code === 429);
    // the cache is as good as its last LIST: the wait is shown (error, next retry), the source is not stale
    expect(o.reflector.state()).toMatchObject({ status: 'synced', error: { code: 429 } });
    expect(o.reflector.state().retryAt).toBeDefined();
    await until('a third watch', () => o.watches().length >= 3, 4_000);
    const [a, b, c] = o.watches();
    expect(b.at - a.at).toBeGreaterThanOrEqual(1_000);
    expect(c.at - b.at).toBeGreaterThanOrEqual(1_000);
    expect(new Set([a, b, c].map((w) => w.query.resourceVersion)).size).toBe(1);
    await until('recovered', () => o.reflector.state().status === 'synced' && o.reflector.state().error === undefined);
    trace.stop();
    expect(trace.statuses).toEqual(['pending', 'synced']);
    expect(o.reflector.state().counters).toMatchObject({ lists: 1, relists: 0 });
    o.reflector.stop();
  });

  it('R8: 401 shows unauthorized, retries slowly, and recovers when the kubeconfig file gets a valid token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'watch-401-'));
    const file = join(dir, 'kubeconfig');
    const good = sim.served.kubeconfig('admin');
    writeFileSync(file, good.replace(sim.served.tokens.admin, 'sim-admin-rotated-away'));
    const transport = KubeTransport.fromFile(file);
    const o = observe(transport, { backoff: { initialMs: 100, maxMs: 1_200 } });
    o.reflector.start();
    await until('unauthorized', () => o.reflector.state().status === 'unauthorized');
    expect(o.reflector.state().error).toMatchObject({ code: 401, reason: 'Unauthorized' });
    await sleep(1_500);
    // one quick retry (a refreshed token), then at the slow cap: 0, ~0.1, ≥0.7, ≥1.3 s
    expect(o.lists().length).toBeGreaterThanOrEqual(2);
    expect(o.lists().length).toBeLessThanOrEqual(4);
    expect(o.reflector.state().retryAt).toBeDefined();
    writeFileSync(file, good);
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    o.reflector.stop();
    transport.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('R8: 403 shows forbidden and retries only at the slow cap', async () => {
    const transport = KubeTransport.fromString(sim.served.kubeconfig('restricted'));
    const o = observe(transport, { backoff: { initialMs: 100, maxMs: 1_200 } });
    o.reflector.start();
    await until('forbidden', () => o.reflector.state().status === 'forbidden');
    expect(o.reflector.state().error?.code).toBe(403);
    expect(o.reflector.state().error?.message).toMatch(/forbidden/);
    await sleep(1_500);
    // slow cap only: 0, ≥0.6, ≥1.2 s
    expect(o.lists().length).toBeLessThanOrEqual(3);
    o.reflector.stop();
    transport.close();
  });

  it('R8: a 403 on the watch after a sync also retries slowly and keeps the cache', async () => {
    sim.fault({ resource: 'pods', verb: 'watch', kind: 'status', status: 403 });
    const o = observe(sim.transport, { backoff: { initialMs: 100, maxMs: 1_200 } });
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    await until('forbidden', () => o.reflector.state().status === 'forbidden');
    await sleep(1_500);
    expect(o.watches().length).toBeLessThanOrEqual(3);
    expect(o.reflector.cache.size).toBe(3);
    o.reflector.stop();
  });

  it('R10: handler exceptions and rejections are caught and counted; processing continues', async () => {
    let calls = 0;
    const diagnostics: ReflectorDiagnostic[] = [];
    const o = observe(sim.transport, {
      onDiagnostic: (d) => diagnostics.push(d),
      handler: (event) => {
        calls += 1;
        if (event.type === 'synced') return undefined;
        if (calls % 2 === 0) throw new Error('handler bug');
        return Promise.reject(new Error('async handler bug'));
      },
    });
    o.reflector.start();
    expect(await o.reflector.waitForSync(3_000)).toBe(true);
    sim.cluster.client.create('pods', testPod('ns', 'after-errors'));
    await until('the later event', () => o.reflector.cache.getByName('after-errors', 'ns'));
    await sleep(50);
    const state = o.reflector.state();
    expect(state.counters.events).toBe(4);
    expect(state.counters.handlerErrors).toBe(4);
    expect(diagnostics.filter((d) => d.kind === 'handler-error')).toHaveLength(4);
    expect(state.status).toBe('synced');
    o.reflector.stop();
  });
});

describe('malformed watch lines', () => {
  // The simulator has no fault that corrupts a stream, so this one case uses a minimal raw HTTPS server
  // (same serving certificate) that writes broken lines between valid events.
  let server: Server;
  let url = '';
  beforeEach(async () => {
    const certificate = servingCertificate();
    server = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
      const pod = (name: string, rv: string) => ({
        ...testPod('ns', name),
        metadata: { name, namespace: 'ns', resourceVersion: rv },
      });
      if (!req.url?.includes('watch=true')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            kind: 'PodList',
            apiVersion: 'v1',
            metadata: { resourceVersion: '10' },
            items: [pod('a', '9')],
          }),
        );
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: pod('b', '11') })}\n`);
      res.write('{"type":"ADDED","object":{"metadata"\n');
      res.write('this is not json\n');
      res.write('{"type":"EXPLODED","object":{}}\n');
      res.write(
        `${JSON.stringify({ type: 'MODIFIED', object: { ...pod('a', '12'), status: { phase: 'Failed' } } })}\n`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('R10: each malformed line is counted and reported, skipped, and the stream goes on', async () => {
    const transport = KubeTransport.fromString(
      buildKubeconfig([{ name: 'raw', server: url, caData: servingCertificate().caData, token: 't' }]),
    );
    const diagnostics: ReflectorDiagnostic[] = [];
    const o = observe(transport, { onDiagnostic: (d) => diagnostics.push(d) });
    o.reflector.start();
    await until('the event after the broken lines', () => o.reflector.resourceVersion === '12');
    const state = o.reflector.state();
    expect(state.counters.parseErrors).toBe(3);
    expect(diagnostics.map((d) => d.kind)).toEqual(['parse-error', 'parse-error', 'parse-error']);
    expect(diagnostics[1].message).toMatch(/malformed JSON/);
    expect(o.reflector.cache.keys().sort()).toEqual(['ns/a', 'ns/b']);
    expect((o.reflector.cache.getByName('a', 'ns')?.status as { phase: string }).phase).toBe('Failed');
    o.reflector.stop();
    transport.close();
  });
});
