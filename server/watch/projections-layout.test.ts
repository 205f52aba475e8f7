/**
 * Where the properties of cached objects live, read from a heap snapshot of this process: inside each object. V8 keeps
 * the properties of an object built up one by one past its first four in a second object, and a fleet's caches hold
 * hundreds of thousands of conditions, references and metadata: every full collection marks each of those objects.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { json } from 'node:stream/consumers';
import { getHeapSnapshot } from 'node:v8';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { conditionTransitions } from '@/lib/cluster/condition-transitions';
import { propertyHolders } from '@/server/bench/heap-property-holders';
import type { HeapSnapshotJson } from '@/server/bench/heap-summary';
import { projectObject } from './projections';

// A real ClusterOperator list from a must-gather (server/fixtures/PROVENANCE.md).
const OPERATORS = join(
  process.cwd(),
  'server/fixtures/must-gather/azure-4.8.11',
  'quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-415e56a6d8d2b8576c59d08a7c57a7d081fa59e7dc3cd8782ed7bcd6080c7c12',
  'cluster-scoped-resources/config.openshift.io/clusteroperators.yaml',
);

const MARKER = 'layout-marker-';

/** The objects as a watch decodes them (JSON.parse of the server's text), each text marked. */
function parsedOperators(): KubeObject[] {
  const { items } = load(readFileSync(OPERATORS, 'utf8')) as { items: KubeObject[] };
  const marked = items.map((operator, index) => {
    const conditions = (operator.status as { conditions: { message?: string }[] }).conditions;
    conditions.forEach((condition, at) => (condition.message = `${MARKER}${index}-${at}`));
    operator.metadata.ownerReferences = [
      { apiVersion: 'v1', kind: 'Namespace', name: `${MARKER}owner-${index}`, uid: `u${index}`, controller: true },
    ];
    return operator;
  });
  return JSON.parse(JSON.stringify(marked)) as KubeObject[];
}

describe('a cached object', () => {
  it('keeps every property of its conditions, references and condition transitions inside the object', async () => {
    const operators = parsedOperators();
    expect(operators.length).toBeGreaterThan(20);
    const cached = operators.map((operator) => projectObject('clusteroperators', operator));
    const transitions = cached.flatMap((operator) => conditionTransitions(undefined, operator, '2026-11-27T00:00:00Z'));

    const snapshot = (await json(getHeapSnapshot())) as HeapSnapshotJson;
    const holders = propertyHolders(snapshot, (text) => text.startsWith(MARKER));
    const conditions = cached.flatMap((operator) => (operator.status as { conditions: unknown[] }).conditions).length;
    const references = cached.length;
    // every marked text is held by the cached copy and (a condition's message) a transition, besides the input
    expect(holders.length).toBeGreaterThanOrEqual(conditions + references + transitions.length);
    expect(holders.filter((holder) => holder.separateStore)).toEqual([]);
    // read after the snapshot, so that they were alive in it
    expect(transitions.length).toBe(conditions);
  });
});
