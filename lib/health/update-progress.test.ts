/**
 * Parity with `oc adm upgrade status` on every example of its own test suite (openshift/oc
 * `pkg/cli/admin/upgrade/status/examples/`, copied in server/fixtures/oc-upgrade/status/): our JSON must say what
 * oc's expected text output says.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import type { KubeObject } from '@/lib/k8s/types';
import { computeUpdateProgress, updateProgress, type UpdateProgressInput } from '@/lib/health/update-progress';
import { parseTime } from '@/lib/health/update-progress-util';
import { DEFAULT_HEALTH_CONFIG, type Snapshot } from '@/lib/health/types';
import {
  controlPlaneFields,
  nodeTable,
  parseOcStatus,
  poolRow,
  sinceText,
  updatingOperatorsTable,
} from '@/lib/health/testing/oc-status-text';
import { parseAlerts } from '@/server/metrics/alerts';

const DIR = join(process.cwd(), 'server/fixtures/oc-upgrade/status');
const CASES = readdirSync(DIR)
  .filter((file) => file.endsWith('-cv.yaml'))
  .map((file) => file.slice(0, -'-cv.yaml'.length))
  .sort();

function load(file: string): unknown {
  return yaml.load(readFileSync(join(DIR, file), 'utf8'));
}

function items(file: string): KubeObject[] {
  return existsSync(join(DIR, file)) ? ((load(file) as { items?: KubeObject[] }).items ?? []) : [];
}

/** The ClusterVersion file holds either the object or a `List` of it (oc's mock loader accepts both). */
function clusterVersionOf(name: string): KubeObject {
  const loaded = load(`${name}-cv.yaml`) as KubeObject & { items?: KubeObject[] };
  return loaded.kind === 'List' && loaded.items ? loaded.items[0] : loaded;
}

/**
 * oc's mock inputs. The optional ones are what the product reads beside the objects: alerts (`oc adm inspect-alerts`
 * output, parsed as the product parses a Prometheus answer) and the machine-config-operator Deployment.
 */
function inputOf(name: string): UpdateProgressInput {
  const input: UpdateProgressInput = {
    clusterVersion: clusterVersionOf(name),
    clusterOperators: items(`${name}-co.yaml`),
    machineConfigPools: items(`${name}-mcp.yaml`),
    machineConfigs: items(`${name}-mc.yaml`),
    nodes: items(`${name}-node.yaml`),
  };
  if (existsSync(join(DIR, `${name}-alerts.json`)))
    input.alerts = parseAlerts(JSON.parse(readFileSync(join(DIR, `${name}-alerts.json`), 'utf8')));
  if (existsSync(join(DIR, `${name}-mco-deployment.yaml`)))
    input.mcoDeployment = load(`${name}-mco-deployment.yaml`) as KubeObject;
  return input;
}

/** oc's examples_test "now": the latest condition transition of the ClusterVersion and ClusterOperators, + 368975 ns. */
function mockNow(input: UpdateProgressInput): number {
  let latest = 0;
  for (const object of [input.clusterVersion as KubeObject, ...input.clusterOperators]) {
    for (const condition of (object.status as { conditions?: { lastTransitionTime?: string }[] } | undefined)
      ?.conditions ?? []) {
      latest = Math.max(latest, parseTime(condition.lastTransitionTime) ?? 0);
    }
  }
  return latest + 0.368975;
}

// ---- the parity table --------------------------------------------------------------------------------------------

describe('computeUpdateProgress parity with oc adm upgrade status examples', () => {
  it('finds the examples', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(8);
  });

  describe.each(CASES)('%s', (name) => {
    const input = inputOf(name);
    const now = mockNow(input);
    const progress = computeUpdateProgress(input, now);
    const expected = parseOcStatus(readFileSync(join(DIR, `${name}.output`), 'utf8'));
    const detailedPath = join(DIR, `${name}.detailed-output`);
    const detailed = existsSync(detailedPath) ? parseOcStatus(readFileSync(detailedPath, 'utf8')) : undefined;
    const poolNodes = (isDetailed: boolean) =>
      Object.fromEntries(
        progress.workerPools
          .filter((pool) => pool.nodes.length > 0)
          .map((pool) => [pool.name, nodeTable(pool.nodes, { detailed: isDetailed, controlPlane: false })]),
      );

    it('agrees on whether the cluster is updating', () => {
      expect(progress.updating).toBe(expected.updating);
    });

    if (!expected.updating) {
      it('not updating: control plane at its target version, no insights', () => {
        expect(progress.controlPlane.assessment).toBe('Completed');
        expect(progress.insights).toEqual([]);
      });
      return;
    }

    it('control plane: assessment, versions, completion, counts, duration, estimate, health, updating', () => {
      expect(controlPlaneFields(progress)).toEqual(expected.fields);
    });

    it('control-plane nodes: assessment, phase, version, estimate, message per row', () => {
      expect(nodeTable(progress.controlPlane.nodes, { detailed: false, controlPlane: true })).toEqual(expected.cpNodes);
    });

    it('worker pools: assessment, completion %, updated/total, status counts', () => {
      const shown = expected.pools.length ? progress.workerPools.map(poolRow) : [];
      expect(shown).toEqual(expected.pools);
    });

    it('worker pool nodes per row', () => {
      expect(poolNodes(false)).toEqual(expected.poolNodes);
    });

    it('insights: since, level, impact and message per row, in order', () => {
      const rows = progress.insights.map((insight) => ({
        SINCE: sinceText(insight.since, now),
        LEVEL: insight.level,
        IMPACT: insight.impact,
        MESSAGE: insight.message,
      }));
      expect(rows).toEqual(expected.health);
    });

    it.runIf(detailed !== undefined)(
      'detailed output: control plane, updating operators, all nodes, insight descriptions and references',
      () => {
        expect(controlPlaneFields(progress)).toEqual(detailed?.fields);
        expect(nodeTable(progress.controlPlane.nodes, { detailed: true, controlPlane: true })).toEqual(
          detailed?.cpNodes,
        );
        expect(poolNodes(true)).toEqual(detailed?.poolNodes);
        expect(updatingOperatorsTable(progress, now)).toEqual(detailed?.updatingOperators ?? []);
        if (detailed?.detailedHealth.length) {
          expect(
            progress.insights.map((insight) => ({
              message: insight.message,
              since: sinceText(insight.since, now),
              level: insight.level,
              impact: insight.impact,
              reference: insight.reference ?? '',
              description: insight.description,
            })),
          ).toEqual(detailed.detailedHealth);
        }
      },
    );
  });
});

describe('updateProgress detector', () => {
  const input = inputOf('4.14.1-degraded');
  const now = mockNow(input);
  const snapshot: Snapshot = {
    objects: {
      clusterversions: [input.clusterVersion as KubeObject],
      clusteroperators: input.clusterOperators,
      machineconfigpools: input.machineConfigPools,
      machineconfigs: input.machineConfigs,
      nodes: input.nodes,
    },
    transitions: [],
    logs: [],
    probes: [],
  };
  const output = updateProgress.detect(snapshot, { now, config: DEFAULT_HEALTH_CONFIG });

  it('maps insight levels to severities with stable ids, evidence and remediation', () => {
    const apiserver = output.findings.find(
      (f) => f.id === 'update-progress/co-degraded:clusteroperator:kube-apiserver',
    );
    expect(apiserver?.severity).toBe('critical');
    expect(apiserver?.subject).toMatchObject({ kind: 'ClusterOperator', name: 'kube-apiserver' });
    expect(apiserver?.since).toBe('2023-11-03T16:28:36Z');
    expect(apiserver?.evidence[0]).toMatchObject({
      kind: 'condition',
      label: 'Degraded=True (NodeController_MasterNodesReady)',
    });
    expect(apiserver?.remediation.map((step) => step.command)).toContain(
      'oc get clusteroperator kube-apiserver -o yaml',
    );
    expect(apiserver?.remediation.map((step) => step.command)).toContain('oc adm upgrade status --details=all');
    const failing = output.findings.find((f) => f.id === 'update-progress/cv-failing:clusterversion:version');
    expect(failing?.severity).toBe('warning');
    expect(new Set(output.findings.map((f) => f.id)).size).toBe(output.findings.length);
  });

  it('summarizes a stalled update as info and samples progress', () => {
    const summary = output.findings.find((f) => f.id === 'update-progress/summary');
    expect(summary?.severity).toBe('info');
    expect(output.samples).toEqual({
      completionPercent: 97,
      updatedOperators: 32,
      unavailableOperators: 1,
      degradedOperators: 4,
      updatedNodes: 0,
    });
  });

  it('reports an idle cluster with a single ok finding', () => {
    const idle = inputOf('not-upgrading');
    const result = updateProgress.detect(
      {
        ...snapshot,
        objects: {
          clusterversions: [idle.clusterVersion as KubeObject],
          clusteroperators: idle.clusterOperators,
          machineconfigpools: idle.machineConfigPools,
          machineconfigs: idle.machineConfigs,
          nodes: idle.nodes,
        },
      },
      { now: mockNow(idle), config: DEFAULT_HEALTH_CONFIG },
    );
    expect(result.findings.map((f) => [f.id, f.severity])).toEqual([['update-progress/summary', 'ok']]);
  });

  it('yields nothing but null samples without a ClusterVersion', () => {
    const result = updateProgress.detect(
      { objects: {}, transitions: [], logs: [], probes: [] },
      { now, config: DEFAULT_HEALTH_CONFIG },
    );
    expect(result.findings).toEqual([]);
    expect(result.samples?.completionPercent).toBeNull();
  });
});
