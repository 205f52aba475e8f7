import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import { DEFAULT_HEALTH_CONFIG, type Snapshot } from '@/lib/health/types';
import type { UpdateProgress } from '@/lib/health/update-progress/types';
import { computeUpdateProgress } from '@/lib/health/update-progress/update-progress';
import { evaluate } from '@/lib/health/evaluate';
import { assessCluster } from '@/lib/cluster/assess-cluster';
import { inputOf, mockNow } from '@/server/testing/oc-status-examples';
import { updateProgress } from './update-progress';

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

describe('updateProgress detector', () => {
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

describe('update progress, once per evaluation', () => {
  const context = { now, config: DEFAULT_HEALTH_CONFIG };

  it('is returned by the detector with its findings', () => {
    const { derived } = evaluate(snapshot, context, [updateProgress]);
    expect(derived?.updateProgress).toEqual(computeUpdateProgress(input, now));
  });

  it('is what the served health shows: the very object the detector computed, not a second computation', () => {
    const computed: UpdateProgress[] = [];
    const recording = {
      ...updateProgress,
      detect: (...args: Parameters<typeof updateProgress.detect>) => {
        const out = updateProgress.detect(...args);
        if (out.derived?.updateProgress) computed.push(out.derived.updateProgress);
        return out;
      },
    };
    const { health } = assessCluster({ id: 'c', name: 'c', snapshot, context, sources: [], detectors: [recording] });
    expect(computed).toHaveLength(1);
    expect(health.updateProgress).toBe(computed[0]);
  });
});
