import { describe, expect, it } from 'vitest';
import { createSimulatedCluster, runScenario } from '../core';
import { nodeName } from '../objects/nodes';
import { renderedConfigName } from '../objects/machine-config-pools';
import { MINUTE } from '../objects/time';
import {
  UIP_BLOCKING_WORKLOAD,
  UIP_CONTROL_PLANE_DONE_BY_MS,
  UIP_DEGRADED_OPERATOR,
  UIP_SLOW_DRAIN_FROM_MS,
  UIP_SLOW_DRAIN_RESOLVED_AT_MS,
  UIP_WORKERS_DONE_BY_MS,
  updateInProgressScenario,
} from './update-in-progress';

interface Cond {
  type: string;
  status: string;
  message: string;
}
const MCO = 'machineconfiguration.openshift.io/';

function start(seed = 2) {
  const cluster = createSimulatedCluster({ seed });
  const startMs = cluster.clock.now();
  runScenario(cluster, updateInProgressScenario);
  return { cluster, to: (ms: number) => cluster.clock.advance(startMs + ms - cluster.clock.now()) };
}

describe('update-in-progress scenario', () => {
  it('rolls operators, then pools node by node with one slow drain', () => {
    const { cluster, to } = start();
    to(6 * MINUTE);
    const cv = cluster.client.get('clusterversions', 'version')!;
    const status = cv.status as { history: { version: string; state: string }[]; conditions: Cond[] };
    expect(status.history[0]).toMatchObject({ version: '4.16.9', state: 'Partial' });
    expect(status.conditions.find((c) => c.type === 'Progressing')?.message).toMatch(
      /^Working towards 4\.16\.9: \d+ of 887 done \(\d+% complete\)/,
    );
    const versions = cluster.client
      .list('clusteroperators')
      .map((co) => (co.status as { versions: { name: string; version: string }[] }).versions[0].version);
    expect(versions).toContain('4.16.9');
    expect(versions).toContain('4.15.30');
    const auth = cluster.client.get('clusteroperators', UIP_DEGRADED_OPERATOR)!;
    expect((auth.status as { conditions: Cond[] }).conditions.find((c) => c.type === 'Degraded')?.status).toBe('True');

    const target = renderedConfigName('worker', '4.16.9');
    const slow = nodeName('worker', 1);
    to(UIP_SLOW_DRAIN_FROM_MS + 2 * MINUTE);
    for (const at of [UIP_CONTROL_PLANE_DONE_BY_MS, UIP_SLOW_DRAIN_RESOLVED_AT_MS - MINUTE]) {
      to(at);
      const node = cluster.client.get('nodes', slow)!;
      expect((node.spec as { unschedulable?: boolean }).unschedulable).toBe(true);
      expect(node.metadata.annotations?.[`${MCO}state`]).toBe('Working');
      expect(node.metadata.annotations?.[`${MCO}desiredDrain`]).toBe(`drain-${target}`);
      expect(node.metadata.annotations?.[`${MCO}lastAppliedDrain`]).not.toBe(`drain-${target}`);
      const done = cluster.client.get('nodes', nodeName('worker', 0))!;
      expect(done.metadata.annotations?.[`${MCO}currentConfig`]).toBe(target);
      expect((done.status as { nodeInfo: { kubeletVersion: string } }).nodeInfo.kubeletVersion).toMatch(/^v1\.29\./);
      const pool = cluster.client.get('machineconfigpools', 'worker')!;
      expect(pool.status).toMatchObject({ machineCount: 3, updatedMachineCount: 1 });
      const pdb = cluster.client.get(
        'poddisruptionbudgets',
        UIP_BLOCKING_WORKLOAD.name,
        UIP_BLOCKING_WORKLOAD.namespace,
      )!;
      expect((pdb.status as { disruptionsAllowed: number }).disruptionsAllowed).toBe(0);
      const history = (cluster.client.get('clusterversions', 'version')!.status as { history: { state: string }[] })
        .history;
      expect(history[0].state).toBe('Completed');
    }

    to(UIP_WORKERS_DONE_BY_MS);
    const pool = cluster.client.get('machineconfigpools', 'worker')!;
    expect(pool.status).toMatchObject({ machineCount: 3, updatedMachineCount: 3, readyMachineCount: 3 });
    for (let i = 0; i < 3; i++) {
      const node = cluster.client.get('nodes', nodeName('worker', i))!;
      expect(node.metadata.annotations?.[`${MCO}state`]).toBe('Done');
      expect((node.spec as { unschedulable?: boolean }).unschedulable).toBeUndefined();
    }
  });

  it('is deterministic for a seed', () => {
    const a = start(13);
    const b = start(13);
    a.to(18 * MINUTE);
    b.to(18 * MINUTE);
    for (const resource of ['clusterversions', 'clusteroperators', 'nodes', 'machineconfigpools', 'pods'] as const) {
      expect(JSON.stringify(a.cluster.client.list(resource))).toBe(JSON.stringify(b.cluster.client.list(resource)));
    }
  });
});
