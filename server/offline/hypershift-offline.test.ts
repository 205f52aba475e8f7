import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { hostedControlPlane } from '@/lib/health/detectors/hosted-control-plane/hosted-control-plane';
import { DEFAULT_HEALTH_CONFIG } from '@/lib/health/types';
import { createSimulatedCluster, runScenario } from '@/server/simulator/core';
import { writeMustGather } from '@/server/simulator/must-gather-writer';
import { HCP_STALLED_BY_MS, hypershiftManagementScenario } from '@/server/simulator/scenarios/hypershift-management';
import { analyzeOffline } from './analyze-offline';
import { formatAnalysis } from './format-text';

const DIR = fileURLToPath(new URL('../fixtures/hypershift/management/', import.meta.url));
const file = (name: string) => `${DIR}${name}`;
const urgent = (severity: string) => severity === 'critical' || severity === 'warning';

describe('offline HostedCluster / NodePool analysis on real objects', () => {
  it('reads a v1alpha1 HostedCluster whose ClusterVersionSucceeding=False and names the cluster operators', async () => {
    const analysis = await analyzeOffline(
      [file('hostedcluster-acmconsole-feng-test-v1alpha1-clusterversion-failing.yaml')],
      { id: 'mgmt' },
    );
    expect(analysis.hosted).toHaveLength(1);
    const [hosted] = analysis.hosted;
    expect(hosted.cluster).toMatchObject({
      id: 'mgmt.feng-test.feng-test',
      role: 'hosted',
      managedBy: 'mgmt',
      version: '4.11.9',
      desiredVersion: '4.11.9',
    });
    expect(hosted.cluster.history).toEqual([
      {
        version: '4.11.9',
        state: 'Partial',
        startedTime: '2022-10-24T20:34:08Z',
        completionTime: null,
        image: 'quay.io/openshift-release-dev/ocp-release:4.11.9-x86_64',
      },
    ]);
    const finding = hosted.findings.find(
      (f) => f.id === 'hosted-control-plane:HostedCluster/feng-test/feng-test:clusterversionsucceeding',
    );
    expect(finding?.severity).toBe('warning');
    expect(finding?.evidence.find((e) => e.label === 'Cluster operators named')?.value).toEqual([
      'console',
      'csi-snapshot-controller',
      'dns',
      'image-registry',
      'insights',
      'kube-storage-version-migrator',
      'monitoring',
      'network',
      'openshift-samples',
      'service-ca',
      'storage',
    ]);
    expect(hosted.updateProgress?.insights.map((insight) => insight.impact)).toEqual(['Update Stalled']);
    expect(analysis.health.cluster.role).toBe('management');
  });

  it('names the component of a real Degraded=True (UnavailableReplicas) condition', async () => {
    const analysis = await analyzeOffline([file('hostedcluster-kni21-agent-v1alpha1-installing.yaml')]);
    // The ARO HCP capture is a conditions fragment: it is checked through the detector on the kni21 object.
    const fragment = load(readFileSync(file('hostedcluster-conditions-aro-hcp-degraded-2026.yaml'), 'utf8')) as {
      status: unknown;
    };
    const hc = { ...analysis.offline.snapshot.objects.hostedclusters![0], status: fragment.status };
    const { findings } = hostedControlPlane.detect(
      { objects: { hostedclusters: [hc] }, transitions: [], logs: [], probes: [] },
      { now: 0, config: DEFAULT_HEALTH_CONFIG },
    );
    expect(findings.map((f) => [f.severity, f.title])).toEqual([
      ['warning', 'Hosted control plane degraded: ingress-operator'],
    ]);
  });

  it('reads the installing kni21 HostedCluster and NodePools: version from the image, node counts, nothing urgent', async () => {
    const analysis = await analyzeOffline(
      [
        file('hostedcluster-kni21-agent-v1alpha1-installing.yaml'),
        file('nodepool-acmconsole-hosted-cluster1-aws-4.15.10.yaml'),
        file('nodepool-acmconsole-feng-hs-import-aws-4.11.17.yaml'),
      ],
      { id: 'mgmt' },
    );
    const byName = new Map(analysis.hosted.map((health) => [health.cluster.name, health]));
    const kni21 = byName.get('kni21')!;
    expect(kni21.cluster.history.map((h) => `${h.version} ${h.state}`)).toEqual(['4.10.26 Partial']);
    expect(kni21.findings.filter((f) => urgent(f.severity))).toEqual([]);
    const pool = byName.get('hosted-cluster1')!;
    expect(pool.hosted?.nodePools).toEqual([
      {
        name: 'hosted-cluster1-nodepool',
        desiredNodes: 2,
        currentNodes: 2,
        version: '4.15.10',
        targetVersion: '4.15.10',
        updating: false,
        message: '',
      },
    ]);
    expect(pool.updateProgress?.workerPools[0]).toMatchObject({
      name: 'hosted-cluster1-nodepool',
      updatedNodes: 2,
      totalNodes: 2,
      assessment: 'Completed',
    });
    expect(pool.findings.filter((f) => urgent(f.severity))).toEqual([]);
    const text = formatAnalysis(analysis);
    expect(text).toContain('Hosted cluster kni21/kni21: version 4.10.26, desired 4.10.26; history 4.10.26 Partial');
    expect(text).toContain('NodePool hosted-cluster1-nodepool: 2/2 nodes, version 4.15.10');
  });
});

describe('offline analysis of a management cluster must-gather', () => {
  it('gives each hosted cluster its version, NodePools and findings, and keeps them off the management cluster', async () => {
    const cluster = createSimulatedCluster({ seed: 2 });
    runScenario(cluster, hypershiftManagementScenario);
    cluster.clock.advance(HCP_STALLED_BY_MS);
    const dir = mkdtempSync(join(tmpdir(), 'hs-mg-'));
    try {
      await writeMustGather(cluster, dir);
      const analysis = await analyzeOffline([dir], { now: cluster.clock.now(), id: 'mgmt' });
      expect(analysis.health.cluster.role).toBe('management');
      expect(analysis.health.findings.filter((f) => urgent(f.severity))).toEqual([]);
      const stalled = analysis.hosted.find((h) => h.cluster.name === 'zstream-stalled')!;
      expect(stalled.cluster).toMatchObject({
        id: 'mgmt.clusters.zstream-stalled',
        version: '4.14.38',
        desiredVersion: '4.14.39',
      });
      expect(
        stalled.findings
          .filter((f) => urgent(f.severity))
          .map((f) => f.id)
          .sort(),
      ).toEqual([
        'featuregate-coverage:ConfigMap/clusters-zstream-stalled/feature-gate:missing-4.14.38',
        'hosted-control-plane:HostedCluster/clusters/zstream-stalled:available',
        'hosted-control-plane:HostedCluster/clusters/zstream-stalled:clusterversionsucceeding',
        'hosted-control-plane:HostedCluster/clusters/zstream-stalled:degraded',
      ]);
      expect(stalled.hosted?.nodePools.map((p) => [p.name, p.currentNodes, p.version])).toEqual([
        ['zstream-stalled-us-east-1a', 3, '4.14.38'],
      ]);
      const healthy = analysis.hosted.find((h) => h.cluster.name === 'healthy')!;
      expect(healthy.findings.filter((f) => urgent(f.severity))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
