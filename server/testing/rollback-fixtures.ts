/**
 * Test inputs for the rollback guide: real objects from server/fixtures, and snapshots of the embedded scenarios taken
 * in-process at a chosen virtual time (objects written by the simulator's own controllers).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, loadAll } from 'js-yaml';
import type { ClusterHealthDto } from '@/lib/api/dto';
import type { KubeObject } from '@/lib/k8s/types';
import { RESOURCE_NAMES } from '@/lib/k8s/resources';
import { DEFAULT_HEALTH_CONFIG, type Snapshot } from '@/lib/health/types';
import { makeSnapshot } from '@/lib/health/testing/builders';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { directionOf, resolveTarget, type RollbackContext } from '@/lib/rollback/rollback-context';
import { clusterVersionOf } from '@/lib/health/shared/objects';
import { createSimulatedCluster, DEFAULT_START_TIME, runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import type { ScenarioName } from '@/server/simulator/types';

const FIXTURES = join(import.meta.dirname, '../fixtures');

/** One object from a YAML or JSON file under server/fixtures (the first item of a `List`). */
export function fixture(path: string): KubeObject {
  const object = load(readFileSync(join(FIXTURES, path), 'utf8')) as KubeObject & { items?: KubeObject[] };
  return object.kind.endsWith('List') && object.items?.[0] ? object.items[0] : object;
}

/** Every item of a `List` file (or the single object) under server/fixtures. */
export function fixtureItems(path: string): KubeObject[] {
  const object = load(readFileSync(join(FIXTURES, path), 'utf8')) as KubeObject & { items?: KubeObject[] };
  return object.kind.endsWith('List') ? (object.items ?? []) : [object];
}

/** Every document of a multi-document YAML file under server/fixtures. */
export function fixtureDocs(path: string): KubeObject[] {
  return (loadAll(readFileSync(join(FIXTURES, path), 'utf8')) as (KubeObject | null)[]).filter(
    (d): d is KubeObject => !!d,
  );
}

/** A scenario's objects at `atMs` of virtual time (advanced in 10 s steps, as the live clock does). */
export function scenarioSnapshot(name: ScenarioName, atMs: number): { snapshot: Snapshot; now: number } {
  const cluster = createSimulatedCluster();
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`scenario ${name} is not registered`);
  runScenario(cluster, scenario);
  const until = DEFAULT_START_TIME + atMs;
  while (cluster.clock.now() < until) cluster.clock.advance(Math.min(10_000, until - cluster.clock.now()));
  const objects: Snapshot['objects'] = {};
  for (const resource of RESOURCE_NAMES) {
    const list = cluster.store.list(resource).map((entry) => structuredClone(entry.object));
    if (list.length) objects[resource] = list;
  }
  return { snapshot: makeSnapshot(objects), now: cluster.clock.now() };
}

/** Health of a snapshot as the engine would serve it (real detectors). */
export function assess(snapshot: Snapshot, now: number, id = 'test'): ClusterHealthDto {
  return assessCluster({ id, name: id, snapshot, context: { now, config: DEFAULT_HEALTH_CONFIG }, sources: [] }).health;
}

/** A check context for `target` (throws on an unparseable target: tests pass real versions). */
export function rollbackContext(
  snapshot: Snapshot,
  target: string,
  options: { now?: number; acceptCrossMinorRisk?: boolean; health?: ClusterHealthDto } = {},
): RollbackContext {
  const now = options.now ?? Date.parse('2026-01-01T00:00:00Z');
  const clusterVersion = clusterVersionOf(snapshot);
  const resolved = resolveTarget(clusterVersion, target);
  if (!resolved) throw new Error(`not a release version: ${target}`);
  return {
    snapshot,
    health: options.health ?? assess(snapshot, now),
    clusterVersion,
    target: resolved,
    now,
    direction: directionOf(clusterVersion, resolved.version),
    acceptCrossMinorRisk: options.acceptCrossMinorRisk ?? false,
  };
}
