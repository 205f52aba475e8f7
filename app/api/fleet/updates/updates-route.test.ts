/**
 * `GET /api/fleet/updates` on the embedded fleet (every story, each on its own simulated API server), watched by real
 * engines recording into a SQLite finding history: the update in progress and the cross-minor updates are listed
 * with their durations, as JSON and as CSV.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fleetUpdatesSchema } from '@/lib/api/history-dto';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { Fleet } from '@/server/engine/fleet';
import type { FindingHistoryRepository } from '@/server/history/finding-history-repository';
import { SqliteFindingHistory } from '@/server/history/sqlite-finding-history';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { startFleet, type Fleet as SimulatedFleet } from '@/server/simulator/fleet';
import { UIP_FROM_VERSION, UIP_TO_VERSION } from '@/server/simulator/scenarios/update-in-progress';
import { ROLLBACK_FROM_VERSION } from '@/server/simulator/scenarios/cross-minor-rollback';
import { SCENARIO_NAMES } from '@/server/simulator/types';
import { GET } from './route';

const holder = globalThis as unknown as {
  __updateHealthFleet?: Fleet;
  __updateHealthFindingHistory?: FindingHistoryRepository;
};
const dir = mkdtempSync(join(tmpdir(), 'fleet-updates-'));
let simulated: SimulatedFleet | undefined;
let fleet: Fleet | undefined;
let history: SqliteFindingHistory | undefined;

const get = (query: string, headers: Record<string, string> = {}) =>
  GET(
    new NextRequest(`http://localhost/api/fleet/updates${query}`, {
      headers: { [VIEWER_HEADER]: encodeViewer({ kind: 'local' }), ...headers },
    }),
  );

beforeAll(async () => {
  simulated = await startFleet({ scenarios: [...SCENARIO_NAMES], speed: 10 });
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, simulated.kubeconfig('reader'), { mode: 0o600 });
  history = new SqliteFindingHistory(join(dir, 'incidents.sqlite'));
  const engines = simulated.clusters.map(
    (running) =>
      new ClusterEngine({
        id: running.id,
        name: running.id,
        connection: createKubeConnection(kubeconfig, running.id),
        history,
      }),
  );
  fleet = new Fleet(engines);
  holder.__updateHealthFleet = fleet;
  holder.__updateHealthFindingHistory = history;
  for (const engine of engines) engine.start();
  const deadline = Date.now() + 60_000;
  // Until every cluster synced and the update in progress shows its target (its story requests it after a minute).
  for (;;) {
    const synced = engines.every(
      (engine) => engine.historyReady() && engine.health().sources.every((s) => s.status !== 'pending'),
    );
    const uip = fleet.get('update-in-progress');
    const started = Date.parse(uip?.health().cluster.history[0]?.startedTime ?? '');
    // …and has run for a while of cluster time, so its duration is not zero on a busy machine.
    const running = uip?.health().updateState?.targetVersion === UIP_TO_VERSION && uip.now() - started >= 30_000;
    if (synced && running) break;
    if (Date.now() > deadline) throw new Error('the embedded fleet did not sync');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);

afterAll(async () => {
  fleet?.stop();
  delete holder.__updateHealthFleet;
  delete holder.__updateHealthFindingHistory;
  await history?.close();
  await simulated?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('update durations over the embedded fleet', () => {
  it('lists the update in progress as ongoing and the cross-minor updates with their durations', async () => {
    const ongoing = async () => {
      const response = await get('');
      expect(response.status).toBe(200);
      const body = fleetUpdatesSchema.parse(await response.json());
      return { body, uip: body.updates.find((u) => u.clusterId === 'update-in-progress' && u.to === UIP_TO_VERSION) };
    };
    // The sync can end the very second the update starts: wait for the cluster's clock to move past its start.
    await vi.waitFor(async () => expect((await ongoing()).uip?.durationSeconds).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 200,
    });
    const { body, uip } = await ongoing();
    expect(uip).toMatchObject({ from: UIP_FROM_VERSION, ongoing: true, completedAt: null });
    expect(uip!.phases.find((phase) => phase.kind === 'control-plane')).toBeDefined();
    // The 4.12 → 4.13 update of the cross-minor story: completed in its history, 82 minutes long.
    const crossMinor = body.updates.find(
      (u) => u.clusterId === 'cross-minor-rollback' && u.to === ROLLBACK_FROM_VERSION,
    );
    expect(crossMinor).toMatchObject({ from: '4.12.56', ongoing: false, durationSeconds: 82 * 60 });
    const pair = body.pairs.find((p) => p.from === '4.12.56' && p.to === ROLLBACK_FROM_VERSION);
    expect(pair).toMatchObject({ clusters: 1, completed: 1, p50Seconds: 82 * 60, p95Seconds: 82 * 60 });
    for (const update of body.updates) expect(update.durationSeconds).toBeGreaterThanOrEqual(0);
  });

  it('answers CSV for format=csv and for Accept: text/csv, one row per update', async () => {
    const json = fleetUpdatesSchema.parse(await (await get('')).json());
    for (const response of [await get('?format=csv'), await get('', { accept: 'text/csv' })]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines = (await response.text()).split('\r\n').filter(Boolean);
      expect(lines[0].split(',')).toContain('duration_seconds');
      expect(lines.length - 1).toBe(json.updates.length);
      expect(lines.some((line) => line.startsWith(`update-in-progress,${UIP_FROM_VERSION},${UIP_TO_VERSION},`))).toBe(
        true,
      );
    }
  });

  it('keeps only what ended since `since`, and names a malformed one', async () => {
    const all = fleetUpdatesSchema.parse(await (await get('')).json());
    const recent = fleetUpdatesSchema.parse(await (await get(`?since=${encodeURIComponent(all.now)}`)).json());
    expect(recent.updates.every((u) => u.ongoing)).toBe(true);
    expect(recent.updates.some((u) => u.clusterId === 'update-in-progress')).toBe(true);
    const bad = await get('?since=last-week');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toContain('since');
  });
});
