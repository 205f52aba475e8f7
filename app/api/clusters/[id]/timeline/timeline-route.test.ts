/**
 * `GET /api/clusters/{id}/timeline` through the real pieces: an engine watching the embedded API server records its
 * findings in a SQLite history, and restricted viewers are filtered by the embedded RBAC (SubjectAccessReview).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timelineSchema } from '@/lib/api/history-dto';
import { AuthService } from '@/server/auth/auth-service';
import type { Viewer } from '@/server/auth/identity';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { Fleet } from '@/server/engine/fleet';
import type { AuthEnv } from '@/server/env';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { SqliteFindingHistory } from '@/server/history/sqlite-finding-history';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { runScenario } from '@/server/simulator/core';
import { CATALOGD_DRAIN_BLOCKED_WINDOW } from '@/server/simulator/scenarios/catalogd-rollout';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { GET } from './route';
import { sourceUpToDate } from '@/lib/health/tiers';

const ID = 'catalogd-rollout';
const holder = globalThis as unknown as {
  __updateHealthFleet?: Fleet;
  __updateHealthAuth?: AuthService;
  __updateHealthFindingHistory?: FindingHistoryRepository;
};
let server: TestServer | undefined;
let engine: ClusterEngine | undefined;
let history: SqliteFindingHistory | undefined;
const dir = mkdtempSync(join(tmpdir(), 'timeline-route-'));

const user = (name: string): Viewer => ({
  kind: 'user',
  user: { name, groups: ['system:authenticated'] },
  via: 'bearer',
});
const get = (query: string, viewer: Viewer, id = ID) =>
  GET(
    new NextRequest(`http://localhost/api/clusters/${id}/timeline${query}`, {
      headers: { [VIEWER_HEADER]: encodeViewer(viewer) },
    }),
    { params: Promise.resolve({ id }) },
  );

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    engine!.evaluateNow();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  server = await startTestServer({ seed: 3 });
  runScenario(server.cluster, SCENARIOS[ID]!);
  const grant = JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'cv-viewer' },
        rules: [{ apiGroups: ['config.openshift.io'], resources: ['clusterversions'], verbs: ['get'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'cv-viewer' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cv-viewer' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'cv-viewer' }],
      },
    ],
  });
  const applied = await server.kubectl('admin', ['apply', '--validate=false', '-f', '-'], grant);
  expect(applied.code, applied.stderr).toBe(0);
  history = new SqliteFindingHistory(join(dir, 'incidents.sqlite'));
  engine = new ClusterEngine({
    id: ID,
    name: ID,
    connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'),
    history,
  });
  const fleet = new Fleet([engine]);
  holder.__updateHealthFleet = fleet;
  holder.__updateHealthFindingHistory = history;
  holder.__updateHealthAuth = new AuthService(
    { UPDATE_HEALTH_AUTH: 'openshift' } as AuthEnv,
    () => {
      throw new Error('no sessions in this test');
    },
    () => ID,
    (clusterId, path, body) => fleet.review(clusterId, path, body),
  );
  engine.start();
  await until(() => engine!.historyReady() && engine!.health().sources.every(sourceUpToDate));
  for (let done = 0; done < CATALOGD_DRAIN_BLOCKED_WINDOW.fromMs + 60_000; done += 30_000) {
    server.cluster.clock.advance(30_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await until(() => engine!.health().findings.some((finding) => finding.id.endsWith(':drain-blocked')));
  engine.evaluateNow();
  await engine.historyIdle();
}, 120_000);

afterAll(async () => {
  engine?.stop();
  delete holder.__updateHealthFleet;
  delete holder.__updateHealthAuth;
  delete holder.__updateHealthFindingHistory;
  await history?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the timeline route', () => {
  it('lists the open findings with their opening for the local operator, at the moment asked', async () => {
    const response = await get('', { kind: 'local' });
    expect(response.status).toBe(200);
    const timeline = timelineSchema.parse(await response.json());
    const live = engine!.health().findings.filter((finding) => finding.id.endsWith(':drain-blocked'));
    for (const finding of live) {
      const entry = timeline.entries.find((candidate) => candidate.findingId === finding.id);
      expect(entry).toMatchObject({ detector: finding.detector, title: finding.title, resolvedAt: null });
      expect(Date.parse(entry!.openedAt)).toBeLessThanOrEqual(Date.parse(finding.since ?? entry!.openedAt));
    }
    // A moment before the first opening shows none of them.
    const first = Math.min(...timeline.entries.map((entry) => Date.parse(entry.openedAt)));
    const before = timelineSchema.parse(await (await get(`?at=${first - 1}`, { kind: 'local' })).json());
    expect(before.entries).toEqual([]);
  });

  it('withholds, and counts, what a viewer may not read, with the same rule as live findings', async () => {
    const full = timelineSchema.parse(await (await get('', { kind: 'local' })).json());
    const response = await get('', user('cv-viewer'));
    expect(response.status).toBe(200);
    const seen = timelineSchema.parse(await response.json());
    expect(seen.entries.filter((entry) => entry.findingId.endsWith(':drain-blocked'))).toEqual([]);
    expect(seen.hiddenEntries).toBe(full.entries.length - seen.entries.length);
    expect(seen.hiddenEntries).toBeGreaterThan(0);
  });

  it('answers a hidden cluster like an unknown one, and names a malformed query', async () => {
    const hidden = await get('', user('nobody'));
    const unknown = await get('', user('nobody'), 'no-such-cluster');
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect((await hidden.json()).error.code).toBe((await unknown.json()).error.code);
    const bad = await get('?from=yesterday', { kind: 'local' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('from');
    expect((await get('?from=2026-11-25T10:00:00Z&to=2026-11-25T09:00:00Z', { kind: 'local' })).status).toBe(400);
  });
});
