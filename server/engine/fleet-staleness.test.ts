/**
 * Trust: a healthy fleet never cries "stale". The whole embedded fleet is watched through the real watch layer for
 * ten minutes of fake wall-clock time at the real bookmark cadence (one BOOKMARK a minute, as kube-apiserver sends
 * them); every timer — the simulator's bookmarks and clocks, the reflectors' inactivity, backoff and staleness timers,
 * the engines' evaluations — runs on vitest's fake clock while the HTTPS traffic between them is real.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleet, type Fleet } from '@/server/simulator/fleet';
import { SCENARIO_NAMES } from '@/server/simulator/types';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { ClusterEngine } from './cluster-engine';

const MINUTE = 60_000;
/** Statuses that are not an alarm: synced, forbidden by design (RBAC of the reader identity), idle, not applicable. */
// An idle cluster's active-tier sources wait for activity on purpose: quiet, not behind.
const QUIET = new Set(['synced', 'forbidden', 'idle', 'not-applicable']);

/** Lets real socket I/O run between fake-timer steps: each setImmediate is one turn of the event loop. */
async function ioTurns(turns = 25): Promise<void> {
  for (let i = 0; i < turns; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

describe('a healthy embedded fleet over ten minutes at the real bookmark cadence', () => {
  let fleet: Fleet | undefined;
  let engines: ClusterEngine[] = [];
  let dir = '';

  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });

  afterAll(async () => {
    for (const engine of engines) engine.stop();
    vi.useRealTimers();
    await fleet?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('never reports a source away from synced once the fleet has synced', async () => {
    fleet = await startFleet({ scenarios: [...SCENARIO_NAMES], speed: 1, bookmarkIntervalMs: MINUTE });
    dir = mkdtempSync(join(tmpdir(), 'fleet-staleness-'));
    const kubeconfig = join(dir, 'kubeconfig.yaml');
    writeFileSync(kubeconfig, fleet.kubeconfig('reader'), { mode: 0o600 });
    engines = fleet.clusters.map(
      (running) =>
        new ClusterEngine({
          id: running.name,
          name: running.name,
          connection: createKubeConnection(kubeconfig, running.name),
        }),
    );
    for (const engine of engines) engine.start();

    const allSynced = () =>
      engines.every((engine) => {
        const sources = engine.health().sources;
        return sources.length > 0 && sources.every((source) => QUIET.has(source.status));
      });
    for (let step = 0; !allSynced(); step += 1) {
      if (step > 2_000) {
        const pending = engines.flatMap((engine) =>
          engine
            .health()
            .sources.filter((s) => !QUIET.has(s.status))
            .map((s) => `${engine.id}/${s.resource}: ${s.status}`),
        );
        throw new Error(`the fleet never synced: ${pending.join(', ')}`);
      }
      await vi.advanceTimersByTimeAsync(50);
      await ioTurns();
    }

    const alarms: string[] = [];
    const start = Date.now();
    while (Date.now() - start < 10 * MINUTE) {
      await vi.advanceTimersByTimeAsync(500);
      await ioTurns();
      for (const engine of engines) {
        for (const source of engine.health().sources) {
          if (!QUIET.has(source.status))
            alarms.push(
              `${engine.id} ${source.resource}${source.namespace ? ` (${source.namespace})` : ''}: ${source.status} ${source.error?.reason ?? ''}`,
            );
        }
      }
    }
    expect(alarms).toEqual([]);
    // every watch stayed live to the end (on quiet resources only bookmarks arrive; a re-watch restarts the
    // server's bookmark timer, so allow up to the inactivity timeout): the cadence was exercised
    const end = Date.now();
    const silent = engines.flatMap((engine) =>
      engine
        .health()
        .sources.filter((s) => s.status === 'synced' && !(Date.parse(s.lastEventAt ?? '') > end - 3 * MINUTE))
        .map((s) => `${engine.id}/${s.resource}: last event ${s.lastEventAt ?? 'never'}`),
    );
    expect(silent).toEqual([]);
  }, 600_000);
});
