import { afterEach, describe, expect, it } from 'vitest';
import { load } from 'js-yaml';
import { startFleet, UnknownScenarioError, type Fleet } from './fleet';
import { SCENARIOS } from './scenarios/registry';
import { testNamespace } from './test-objects';
import type { Scenario, ScenarioName } from './types';

function tinyScenario(name: ScenarioName): Scenario {
  return {
    name,
    title: name,
    description: 'test scenario',
    failureAtMs: 60_000,
    start: (context) => {
      context.client.create('namespaces', testNamespace('tick'));
      context.clock.setInterval(
        () => context.client.patch('namespaces', 'tick', { metadata: { labels: { at: String(context.clock.now()) } } }),
        1_000,
      );
    },
  };
}

describe('fleet', () => {
  let fleet: Fleet | undefined;
  const saved = { ...SCENARIOS };
  afterEach(async () => {
    await fleet?.close();
    for (const key of Object.keys(SCENARIOS) as ScenarioName[]) delete SCENARIOS[key];
    Object.assign(SCENARIOS, saved);
  });

  it('starts one HTTPS cluster per scenario with a multi-context kubeconfig and running clocks', async () => {
    SCENARIOS.steady = tinyScenario('steady');
    SCENARIOS['update-in-progress'] = tinyScenario('update-in-progress');
    fleet = await startFleet({ scenarios: ['steady', 'update-in-progress'], speed: 100, tickMs: 20 });
    expect(fleet.clusters.map((c) => c.name)).toEqual(['steady', 'update-in-progress']);
    const config = load(fleet.kubeconfig('reader')) as {
      contexts: { name: string }[];
      clusters: { cluster: { server: string } }[];
    };
    expect(config.contexts.map((c) => c.name)).toEqual(['steady', 'update-in-progress']);
    expect(config.clusters[0].cluster.server).toBe(fleet.clusters[0].url);
    const start = fleet.clusters[0].cluster.clock.now();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fleet.clusters[0].cluster.clock.now() - start).toBeGreaterThan(5_000);
    expect(fleet.clusters[0].cluster.client.get('namespaces', 'tick')?.metadata.labels?.at).toBeDefined();
  });

  it('runs a sized fleet cycling through the scenarios, ids <scenario>-<i>, one context each', async () => {
    SCENARIOS.steady = tinyScenario('steady');
    SCENARIOS['update-in-progress'] = tinyScenario('update-in-progress');
    fleet = await startFleet({ scenarios: ['steady', 'update-in-progress'], size: 5, speed: 100, tickMs: 20 });
    expect(fleet.clusters.map((c) => c.id)).toEqual([
      'steady-0',
      'update-in-progress-1',
      'steady-2',
      'update-in-progress-3',
      'steady-4',
    ]);
    expect(fleet.clusters.map((c) => c.name)).toEqual([
      'steady',
      'update-in-progress',
      'steady',
      'update-in-progress',
      'steady',
    ]);
    const config = load(fleet.kubeconfig('reader')) as { contexts: { name: string }[] };
    expect(config.contexts.map((c) => c.name)).toEqual(fleet.clusters.map((c) => c.id));
    expect(new Set(fleet.clusters.map((c) => c.url)).size).toBe(5);
  });

  it('fails clearly for a scenario that is not registered', async () => {
    for (const key of Object.keys(SCENARIOS) as ScenarioName[]) delete SCENARIOS[key];
    await expect(startFleet({ scenarios: ['catalogd-rollout'], speed: 10 })).rejects.toThrow(UnknownScenarioError);
    await expect(startFleet({ scenarios: ['catalogd-rollout'], speed: 10 })).rejects.toThrow(
      'unknown scenario "catalogd-rollout"',
    );
  });
});
