/**
 * A chart point is stamped with the cluster's time, and is taken only once that time and the sources are known. The
 * cluster's clock is learnt from its answers; an evaluation that runs before any answer (the periodic one, or a
 * viewer opening the page) stamped its points with our own clock: days ahead of an embedded cluster, and every later
 * point, stamped with the cluster's time, came before it. The browser keeps only points newer than its last one, so
 * the page charted nothing at all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SamplePointDto } from '@/lib/api/dto';
import { runScenario } from '@/server/simulator/core';
import { MINUTE } from '@/server/simulator/objects/time';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ClusterConnection, SourceHandle } from '@/server/kube/connection';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { until } from '@/server/testing/reflector-harness';
import { evaluationsSoFar } from '@/server/testing/evaluation-count';
import { SqliteFindingHistory } from '@/server/history/sqlite-finding-history';
import { ClusterEngine } from './cluster-engine';

/** A year and more before any day these tests run: a point stamped with the local clock is far from every true one. */
const CLUSTER_START = Date.parse('2025-03-03T09:00:00Z');
const NO_PERIODIC = 100_000;

let server: TestServer | undefined;
let engine: ClusterEngine | undefined;
let history: SqliteFindingHistory | undefined;
const dir = mkdtempSync(join(tmpdir(), 'sample-times-'));

afterEach(async () => {
  engine?.stop();
  await engine?.historyIdle();
  await history?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  engine = undefined;
  history = undefined;
  server = undefined;
});

/** `connection` whose watches start only once `release` is called: the engine runs before the cluster answered. */
function held(connection: ClusterConnection): { connection: ClusterConnection; release: () => void } {
  const waiting: SourceHandle[] = [];
  let released = false;
  return {
    connection: {
      ...connection,
      watch: (need, onEvent) => {
        const handle = connection.watch(need, onEvent);
        // the handle's methods live on its prototype: the held one inherits them and only starts later
        const gated: SourceHandle = Object.create(handle);
        gated.start = () => (released ? handle.start() : void waiting.push(handle));
        return gated;
      },
    },
    release: () => {
      released = true;
      for (const handle of waiting.splice(0)) handle.start();
    },
  };
}

function allPoints(e: ClusterEngine): SamplePointDto[] {
  return Object.values(e.series().samples).flatMap((points) => points ?? []);
}

it('takes no chart point and opens no finding before the cluster answered; every time is the cluster time, in order', async () => {
  server = await startTestServer({ startTime: CLUSTER_START });
  runScenario(server.cluster, SCENARIOS['catalogd-rollout']!);
  server.cluster.clock.advance(MINUTE);
  const { connection, release } = held(createKubeConnection(server.kubeconfigPath('reader'), 'sim'));
  history = new SqliteFindingHistory(join(dir, 'history.sqlite'));
  engine = new ClusterEngine({ id: 'sim', name: 'sim', connection, pollScale: NO_PERIODIC, history });
  const before = await evaluationsSoFar();
  engine.start();
  // A viewer opens the page: the engine evaluates at once, with no source answered and the cluster's clock unknown.
  const leave = engine.view();
  await until('an evaluation before any answer', async () => (await evaluationsSoFar()) > before, 10_000);
  expect(connection.clockHeard()).toBe(false);
  expect(allPoints(engine)).toEqual([]);

  release();
  const running = engine;
  await until(
    'points for catalog replicas',
    () => (running.series().samples['catalog-replicas']?.length ?? 0) > 0,
    20_000,
  );
  // The story goes on (the rollout): its events are evaluated, and points follow at most one a second.
  const cluster = server.cluster;
  await until(
    'a second point',
    () => {
      cluster.clock.advance(10_000);
      return (running.series().samples['catalog-replicas']?.length ?? 0) > 1;
    },
    20_000,
    250,
  );
  leave();

  const now = engine.now();
  expect(Math.abs(now - Date.now())).toBeGreaterThan(24 * 60 * MINUTE);
  await engine.historyIdle();
  const events = await history.events('sim', 0, Number.MAX_SAFE_INTEGER);
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) {
    expect(
      [event.openedAt, event.at].every((t) => t >= CLUSTER_START && t <= now),
      event.findingId,
    ).toBe(true);
  }
  for (const [detector, points] of Object.entries(engine.series().samples)) {
    const times = (points ?? []).map((point) => point.t);
    for (const t of times) {
      expect(t, detector).toBeGreaterThanOrEqual(CLUSTER_START);
      expect(t, detector).toBeLessThanOrEqual(now);
    }
    expect(times, detector).toEqual([...times].sort((a, b) => a - b));
  }
});
