import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base } from '../fixtures';
import { startEmbeddedServer, type EmbeddedServer } from '../support/embedded-server';
import { DemoRecorder } from './recorder';
import { DEMO_SCENARIOS, type DemoScenario } from './scenarios';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { SCENARIO_NAMES, type ScenarioName } from '@/server/simulator/types';

const SPEED = 10;
/** Time after a story's failure for its findings to settle (virtual ms). */
const SETTLE_MS = 60_000;

/** The demo dashboard, and a wait until a scenario's story has reached its failure. */
export interface DemoServer extends EmbeddedServer {
  untilFailure(name: ScenarioName): Promise<void>;
}

function scenarioOf(title: string): DemoScenario {
  const scenario = DEMO_SCENARIOS.find((s) => title.startsWith(`[${s.name}]`));
  if (!scenario) throw new Error(`demo test "${title}" does not name a scenario as [name]`);
  return scenario;
}

/**
 * Demo fixtures: one dashboard per worker on a fresh embedded fleet (every scenario) at the speed `npm start` uses,
 * so the walkthroughs show what an SRE would see, each once its story has reached its failure; and a `demo` recorder named after the walkthrough's scenario.
 * The clock is left to run rather than jumped ahead: a jump makes the dashboard's estimate of cluster time overshoot
 * for a while, and leases then look expired.
 */
export const test = base.extend<{ demo: DemoRecorder }, { demoServer: DemoServer }>({
  demoServer: [
    async ({}, provide, workerInfo) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'uh-demo-'));
      const port = Number(process.env.E2E_PORT ?? 3100) + 39 + workerInfo.workerIndex;
      const server = await startEmbeddedServer({ port, scenarios: [...SCENARIO_NAMES], speed: SPEED, dataDir });
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
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  // The browser context (and so its video) is created after baseURL: waiting here keeps the idle time out of the video.
  baseURL: [
    async ({ demoServer }, provide, testInfo) => {
      await demoServer.untilFailure(scenarioOf(testInfo.title).name);
      await provide(demoServer.baseURL);
    },
    { scope: 'test', timeout: 180_000 },
  ],
  demo: async ({ page }, provide, testInfo) => {
    const scenario = scenarioOf(testInfo.title);
    const recorder = new DemoRecorder(page, scenario.name, scenario.title);
    await provide(recorder);
    recorder.finish(testInfo);
  },
});

export { expect } from '../fixtures';
