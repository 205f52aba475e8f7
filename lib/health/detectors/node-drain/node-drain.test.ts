import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { nodeDrain, SLOW_DRAIN_MS } from '@/lib/health/detectors/node-drain/node-drain';
import { makeContext, makePod, makeSnapshot } from '@/lib/health/testing/builders';

/** oc's own example: a 4.16 worker pool whose drains a PDB prohibits (the daemon gave up after 1 hour). */
const FIXTURE = join(
  process.cwd(),
  'server/fixtures/oc-upgrade/status',
  '4.16.0-ec2-control-plane-updated-pdb-prohibits-draining-node.yaml',
);
const realNodes = (yaml.load(readFileSync(FIXTURE, 'utf8')) as { items: KubeObject[] }).items;

const MC = 'machineconfiguration.openshift.io';
const NOW = '2026-11-22T09:40:00Z';

function drainingNode(cordonedAt: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'worker-1',
      annotations: {
        [`${MC}/desiredDrain`]: 'drain-rendered-worker-new',
        [`${MC}/lastAppliedDrain`]: 'uncordon-rendered-worker-old',
        [`${MC}/state`]: 'Working',
      },
    },
    spec: {
      unschedulable: true,
      taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: cordonedAt }],
    },
  };
}
const app = makePod({
  namespace: 'payments',
  name: 'payments-api-7f9',
  nodeName: 'worker-1',
  labels: { app: 'payments-api' },
  containers: [{ name: 'api' }],
});
const pdb: KubeObject = {
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'payments-api', namespace: 'payments' },
  spec: { minAvailable: 1, selector: { matchLabels: { app: 'payments-api' } } },
  status: { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 },
};

describe('nodeDrain', () => {
  it("oc's pdb-prohibits-draining example: every node whose daemon failed to drain is named, nothing else", () => {
    const out = nodeDrain.detect(makeSnapshot({ nodes: realNodes }), makeContext('2024-02-27T16:20:00Z'));
    const failed = realNodes
      .filter(
        (n) =>
          /failed to drain node/.test(n.metadata.annotations?.[`${MC}/reason`] ?? '') &&
          n.metadata.annotations?.[`${MC}/desiredDrain`]?.startsWith('drain-'),
      )
      .map((n) => n.metadata.name);
    expect(failed.length).toBeGreaterThan(0);
    expect(out.findings.map((f) => f.subject.name).sort()).toStrictEqual(failed.sort());
    expect(out.findings[0]).toMatchObject({ severity: 'warning', detector: 'node-drain' });
    expect(out.findings[0].title).toMatch(/^Node \S+ is slow to drain$/);
    expect(out.findings[0].summary).toContain('failed to drain node');
  });

  it('names the pod and the PDB holding a drain that runs past the threshold, since it was cordoned', () => {
    const cordoned = new Date(Date.parse(NOW) - SLOW_DRAIN_MS - 60_000).toISOString();
    const snapshot = makeSnapshot({ nodes: [drainingNode(cordoned)], pods: [app], poddisruptionbudgets: [pdb] });
    const [f] = nodeDrain.detect(snapshot, makeContext(NOW)).findings;
    expect(f).toMatchObject({
      id: 'node-drain:Node//worker-1:slow-drain',
      since: cordoned,
      title: 'Node worker-1 is slow to drain',
    });
    expect(f.summary).toContain('payments/payments-api-7f9');
    const refused = 'Eviction of payments/payments-api-7f9 refused by PodDisruptionBudget payments-api';
    expect(f.evidence.some((e) => e.label === refused)).toBe(true);
    expect(f.remediation.map((r) => r.command)).toContain('oc -n payments get pdb payments-api -o wide');
  });

  it('is quiet for a drain younger than the threshold, a finished drain, or a cordon without a drain request', () => {
    const recent = new Date(Date.parse(NOW) - 60_000).toISOString();
    const old = new Date(Date.parse(NOW) - 3 * SLOW_DRAIN_MS).toISOString();
    const done = drainingNode(old);
    done.metadata.annotations![`${MC}/lastAppliedDrain`] = 'drain-rendered-worker-new';
    const manual = drainingNode(old);
    delete manual.metadata.annotations![`${MC}/desiredDrain`];
    for (const node of [drainingNode(recent), done, manual]) {
      const snapshot = makeSnapshot({ nodes: [node], pods: [app], poddisruptionbudgets: [pdb] });
      expect(nodeDrain.detect(snapshot, makeContext(NOW)).findings).toStrictEqual([]);
    }
  });
});
