import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '../fixtures';
import { startDashboard, type DemoDashboard } from './demo-server';
import { DemoRecorder } from './recorder';
import { DEMO_SCENARIOS } from './scenarios';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import type { ScenarioName } from '@/server/simulator/types';

const SPEED = 10;
/** Time after a story's failure for its findings to settle (virtual ms). */
const SETTLE_MS = 60_000;

/** The demo dashboard, and a wait until a scenario's story has reached its failure. */
export interface DemoServer extends DemoDashboard {
  untilFailure(name: ScenarioName): Promise<void>;
}

/**
 * Demo fixtures: one dashboard per worker on a fresh embedded fleet (every scenario) at the speed `npm start` uses,
 * so the walkthroughs show what an SRE would see; and a `demo` recorder named after the walkthrough's scenario.
 * The clock is left to run rather than jumped ahead: a jump makes the dashboard's estimate of cluster time overshoot
 * for a while, and leases then look expired.
 */
export const test = base.extend<{ demo: DemoRecorder }, { demoServer: DemoServer }>({
  demoServer: [async ({}, provide, workerInfo) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'uh-demo-'));
    const port = Number(process.env.E2E_PORT ?? 3100) + 39 + workerInfo.workerIndex;
    const server = await startDashboard({ port, speed: SPEED, dataDir });
    const startedAt = Date.now();
    const untilFailure = async (name: ScenarioName): Promise<void> => {
      const due = startedAt + ((SCENARIOS[name]?.failureAtMs ?? 0) + SETTLE_MS) / SPEED;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    };
    try {
      await provide({ ...server, untilFailure });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, { scope: 'worker', timeout: 180_000 }],
  baseURL: async ({ demoServer }, provide) => { await provide(demoServer.baseURL); },
  demo: async ({ page }, provide, testInfo) => {
    const scenario = DEMO_SCENARIOS.find((s) => testInfo.title.startsWith(`[${s.name}]`));
    if (!scenario) throw new Error(`demo test "${testInfo.title}" does not name a scenario as [name]`);
    const recorder = new DemoRecorder(page, scenario.name, scenario.title);
    await provide(recorder);
    recorder.finish(testInfo);
  },
});

export { expect } from '../fixtures';
