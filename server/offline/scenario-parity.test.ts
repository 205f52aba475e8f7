import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClusterHealthDto, FindingDto } from '@/lib/api/dto';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import type { ClusterConnection } from '@/server/kube/connection';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { runScenario } from '@/server/simulator/core';
import { writeMustGather } from '@/server/simulator/must-gather-writer';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { SCENARIO_NAMES, type ScenarioName } from '@/server/simulator/types';
import { analyzeOffline } from './analyze-offline';
import { sourceUpToDate } from '@/lib/health/tiers';

/**
 * Findings that legitimately differ between the live engine and a must-gather of the same cluster at the same
 * virtual time, by scenario: `live` ones only the watcher can know, `offline` ones only the dump shows. Each entry
 * names the exact finding id and why; anything else that differs fails the test. Pod-setup latency (D) compares
 * equal only because neither side has a metrics source here: a must-gather carries no ovnkube histograms.
 */
const EXPECTED_DIFFERENCES: Partial<Record<ScenarioName, { side: 'live' | 'offline'; id: string; reason: string }[]>> =
  {
    'catalogd-rollout': [
      {
        side: 'live',
        id: 'catalog-replicas:ClusterOperator//olm:unavailable',
        reason:
          'counts olm Available=False transitions the watcher saw during the rollout; by the dump olm is Available ' +
          'again and a must-gather keeps only the current condition, not its history',
      },
    ],
    'extension-install-flap': [
      {
        side: 'live',
        id: 'install-settling:ClusterExtension//argocd-operator:streak',
        reason:
          'failure mode E: the root cause lives only in the condition-transition history a watcher records; the ' +
          'ClusterExtension in a must-gather holds just the latest (transient) message and one lastTransitionTime',
      },
    ],
  };

const root = mkdtempSync(join(tmpdir(), 'parity-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The live connection, with "now" pinned to the virtual clock: the dump is compared at exactly that instant. */
function pinnedConnection(server: TestServer): ClusterConnection {
  const connection = createKubeConnection(server.kubeconfigPath('reader'), 'sim');
  return { ...connection, now: () => server.cluster.clock.now() };
}

async function advanceGradually(server: TestServer, totalMs: number, stepMs = 10_000): Promise<void> {
  for (let done = 0; done < totalMs; done += stepMs) {
    server.cluster.clock.advance(Math.min(stepMs, totalMs - done));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

function key(finding: FindingDto): string {
  return `${finding.severity} ${finding.detector} ${finding.id}`;
}

/** Live and dumped findings of one scenario at `failureAtMs` + 1 minute. */
async function compare(name: ScenarioName): Promise<{ live: ClusterHealthDto; offline: ClusterHealthDto }> {
  const scenario = SCENARIOS[name]!;
  const server = await startTestServer();
  runScenario(server.cluster, scenario);
  const engine = new ClusterEngine({ id: name, name, connection: pinnedConnection(server) });
  try {
    engine.start();
    // The live side is the cluster's page, open: its active tier reads what a must-gather holds (pods, logs).
    engine.view();
    const synced = () =>
      engine.active() && engine.health().sources.length > 0 && engine.health().sources.every(sourceUpToDate);
    await until(synced, 15_000);
    await advanceGradually(server, scenario.failureAtMs + 60_000);
    const dir = join(root, name);
    await writeMustGather(server.cluster, dir);
    const analysis = await analyzeOffline([dir], { now: server.cluster.clock.now(), id: name, name });
    // Logs are polled every 10 s of real time: give the live tails a poll to catch up with the dump (bounded, so
    // a poller that cannot read logs makes the evidence differ, not the test hang).
    const tails = analysis.offline.snapshot.logs.map(
      (excerpt) => `${excerpt.ref.namespace}/${excerpt.ref.name}/${excerpt.container}\n${excerpt.lines.at(-1)}`,
    );
    await until(() => {
      const live = new Set(
        engine
          .snapshot()
          .logs.map(
            (excerpt) => `${excerpt.ref.namespace}/${excerpt.ref.name}/${excerpt.container}\n${excerpt.lines.at(-1)}`,
          ),
      );
      return tails.every((tail) => live.has(tail));
    }, 12_000);
    engine.evaluateNow();
    return { live: engine.health(), offline: analysis.health };
  } finally {
    engine.stop();
    await server.close();
  }
}

describe('a must-gather of the embedded cluster gives the live findings', () => {
  it.concurrent.each(SCENARIO_NAMES.map((name) => [name]))(
    '%s',
    async (name) => {
      expect(SCENARIOS[name], `scenario ${name} is not registered`).toBeDefined();
      const { live, offline } = await compare(name);
      const differences = EXPECTED_DIFFERENCES[name] ?? [];
      const excluded = (side: 'live' | 'offline', finding: FindingDto) =>
        differences.some((entry) => entry.side === side && entry.id === finding.id);
      const liveKeys = live.findings
        .filter((finding) => !excluded('live', finding))
        .map(key)
        .sort();
      const offlineKeys = offline.findings
        .filter((finding) => !excluded('offline', finding))
        .map(key)
        .sort();
      expect(offlineKeys, `live:\n${liveKeys.join('\n')}`).toEqual(liveKeys);
      for (const entry of differences) {
        const seen = {
          live: live.findings.some((f) => f.id === entry.id),
          offline: offline.findings.some((f) => f.id === entry.id),
        };
        expect(seen, `${entry.id} no longer differs as recorded: update EXPECTED_DIFFERENCES`).toEqual({
          live: entry.side === 'live',
          offline: entry.side === 'offline',
        });
      }
      expect(offline.cluster.version).toBe(live.cluster.version);
    },
    50_000,
  );
});
