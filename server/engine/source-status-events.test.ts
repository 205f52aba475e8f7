/**
 * A source's status change is an engine event like a sync: a refused always-tier source settles the first sync when
 * it is the last to answer, and a source refused after the first sync is published at once, without waiting for
 * another source's change or the periodic re-evaluation (pushed out of the test's reach by `pollScale`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { until } from '@/server/testing/reflector-harness';
import { ClusterEngine } from './cluster-engine';

/** A periodic re-evaluation every 5 s × this (6 days, within a timer's 32-bit range): never within a test. */
const NO_PERIODIC = 100_000;

let server: TestServer | undefined;
let engine: ClusterEngine | undefined;

afterEach(async () => {
  engine?.stop();
  engine = undefined;
  await server?.close();
  server = undefined;
});

async function startEngine(): Promise<{ server: TestServer; engine: ClusterEngine }> {
  server = await startTestServer({ seed: 1 });
  runScenario(server.cluster, SCENARIOS.steady!);
  engine = new ClusterEngine({
    id: 'steady',
    name: 'steady',
    // A watch silent this long is given up on (the server's bookmarks come every 200 ms).
    connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim', { inactivityTimeoutMs: 1_000 }),
    pollScale: NO_PERIODIC,
  });
  return { server, engine };
}

const status = (engine: ClusterEngine, resource: string) =>
  engine.health().sources.find((source) => source.resource === resource)?.status;

describe('a source status change reaching its cluster engine', () => {
  it('settles the first sync on the failure of the source that answers last', async () => {
    const { server, engine } = await startEngine();
    // ClusterVersion's first request answers nothing (given up after the inactivity timeout, long after the other
    // sources synced), every later one is refused: only status changes mark its settling.
    server.cluster.faults.add({ resource: 'clusterversions', verb: 'any', kind: 'silence', count: 1 });
    server.cluster.faults.add({ resource: 'clusterversions', verb: 'any', kind: 'status', status: 403 });
    let settled = false;
    engine.onFirstSync(() => (settled = true));
    engine.start();
    await until('the first sync to settle', () => settled, 15_000);
    await until('the refusal to be published', () => status(engine, 'clusterversions') === 'forbidden', 15_000);
  }, 40_000);

  it('publishes a source refused after the first sync within one evaluation', async () => {
    const { server, engine } = await startEngine();
    let settled = false;
    engine.onFirstSync(() => (settled = true));
    engine.start();
    await until('the first sync to settle', () => settled, 15_000);
    await until('ClusterVersion to be published synced', () => status(engine, 'clusterversions') === 'synced');
    server.cluster.faults.add({ resource: 'clusterversions', verb: 'any', kind: 'status', status: 403 });
    server.served.dropConnections('destroy');
    await until('the refusal to be published', () => status(engine, 'clusterversions') === 'forbidden', 10_000);
    const published = engine.health().sources.find((source) => source.resource === 'clusterversions');
    expect(published?.error?.code).toBe(403);
  }, 40_000);
});
