/**
 * Two replicas (two engines, each with its own connection to one shared PostgreSQL) watch the same cluster, stop,
 * and start again: a finding open before the restart keeps its opening, and each lifecycle event is stored once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterHealthDto } from '@/lib/api/dto';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { UIP_SLOW_DRAIN_FROM_MS } from '@/server/simulator/scenarios/update-in-progress';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { startPostgres, type PostgresServer } from '@/server/testing/postgres-server';
import { PostgresFindingHistory } from './postgres-finding-history';
import { sourceUpToDate } from '@/lib/health/tiers';

let server: TestServer | undefined;
let postgres: PostgresServer | undefined;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  server = await startTestServer();
  runScenario(server.cluster, SCENARIOS['update-in-progress']!);
}, 120_000);

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await server?.close();
  postgres?.stop();
});

function replica(): { engine: ClusterEngine; history: PostgresFindingHistory } {
  const history = new PostgresFindingHistory(postgres!.url);
  const engine = new ClusterEngine({
    id: 'uip',
    name: 'uip',
    connection: createKubeConnection(server!.kubeconfigPath('reader'), 'sim'),
    history,
  });
  engine.start();
  closers.push(
    () => history.close(),
    () => engine.stop(),
  );
  return { engine, history };
}

async function until(
  engine: ClusterEngine,
  check: (health: ClusterHealthDto) => boolean,
  timeoutMs = 30_000,
): Promise<ClusterHealthDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    engine.evaluateNow();
    const health = engine.health();
    if (check(health)) return health;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(health.sources)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const synced = (health: ClusterHealthDto) => health.sources.length > 0 && health.sources.every(sourceUpToDate);
const problems = (health: ClusterHealthDto) =>
  health.findings.filter((finding) => finding.severity === 'critical' || finding.severity === 'warning');

describe('the finding history shared by two replicas across a restart', () => {
  it('keeps an open finding’s opening and stores each lifecycle event once', async () => {
    const first = [replica(), replica()];
    for (const { engine } of first) await until(engine, (h) => synced(h) && engine.historyReady());
    for (let done = 0; done < UIP_SLOW_DRAIN_FROM_MS + 60_000; done += 20_000) {
      server!.cluster.clock.advance(20_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const { engine } of first) await until(engine, (h) => problems(h).length > 0);
    for (const { engine } of first) {
      engine.evaluateNow();
      await engine.historyIdle();
    }
    const before = await first[0].history.openStates('uip');
    const ids = problems(first[0].engine.health()).map((finding) => finding.id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(before.map((state) => state.findingId)).toContain(id);
    for (const { engine } of first) engine.stop();

    // Both replicas start again (new connections, new memory) a little later in cluster time.
    server!.cluster.clock.advance(30_000);
    const second = [replica(), replica()];
    for (const { engine } of second) await until(engine, (h) => synced(h) && engine.historyReady());
    for (const { engine } of second) await until(engine, (h) => ids.every((id) => h.findings.some((f) => f.id === id)));
    for (const { engine } of second) {
      engine.evaluateNow();
      await engine.historyIdle();
    }
    const after = await second[1].history.openStates('uip');
    for (const id of ids) {
      const was = before.find((state) => state.findingId === id)!;
      expect(after.find((state) => state.findingId === id)?.openedAt).toBe(was.openedAt);
      // What the restarted replicas publish as onset is at or before the stored opening.
      for (const { engine } of second) {
        const since = engine.health().findings.find((finding) => finding.id === id)?.since;
        if (since) expect(Date.parse(since)).toBeLessThanOrEqual(was.openedAt);
      }
    }
    const events = await second[0].history.events('uip', 0, Date.now() * 2);
    const keys = events.map((event) => `${event.findingId} ${event.openedAt} ${event.kind} ${event.at}`);
    expect(new Set(keys).size).toBe(keys.length);
    const openings = events.filter((event) => event.kind === 'opened').map((e) => `${e.findingId} ${e.openedAt}`);
    expect(new Set(openings).size).toBe(openings.length);
    // Nothing open before the restart was resolved and reopened by it.
    for (const id of ids) expect(events.filter((e) => e.findingId === id && e.kind === 'opened')).toHaveLength(1);
  }, 180_000);
});
