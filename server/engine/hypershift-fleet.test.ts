import { afterEach, describe, expect, it } from 'vitest';
import { clusterListSchema, clusterHealthSchema, type ClusterSummaryDto, type StreamMessage } from '@/lib/api/dto';
import { runScenario } from '@/server/simulator/core';
import { installHyperShiftCrds } from '@/server/simulator/crds';
import {
  HCP_CRASHLOOP_BY_MS,
  HC_HEALTHY,
  HC_ROLLING,
  HC_STALLED,
  NODEPOOL_UPDATE_AT_MS,
} from '@/server/simulator/scenarios/hypershift-management';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ScenarioName } from '@/server/simulator/types';
import { ClusterEngine } from './cluster-engine';
import { Fleet } from './fleet';
import { createKubeConnection, type WatchTiming } from '@/server/kube/kube-connection';
import { rowSynced, sourceUpToDate } from '@/lib/health/tiers';

const servers: TestServer[] = [];
let fleet: Fleet | undefined;

afterEach(async () => {
  fleet?.stop();
  fleet = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function boot(
  name: ScenarioName,
  seed: number,
  timing?: WatchTiming,
): Promise<{ server: TestServer; engine: ClusterEngine }> {
  const server = await startTestServer({ seed });
  servers.push(server);
  runScenario(server.cluster, SCENARIOS[name]!);
  const engine = new ClusterEngine({
    id: name,
    name,
    connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim', timing),
  });
  return { server, engine };
}

async function advanceGradually(server: TestServer, totalMs: number, stepMs = 10_000): Promise<void> {
  for (let done = 0; done < totalMs; done += stepMs) {
    server.cluster.clock.advance(Math.min(stepMs, totalMs - done));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function until<T>(read: () => T, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const engine of engines) engine.evaluateNow();
    const value = read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let engines: ClusterEngine[] = [];

describe('a HyperShift management cluster in the fleet', () => {
  it('lists every HostedCluster as a hosted row managed by it, with findings from the management side', async () => {
    const { server, engine } = await boot('hypershift-management', 2);
    engines = [engine];
    fleet = new Fleet(engines);
    engine.start();
    await until(
      () => engine.health(),
      (h) => h.sources.length > 0 && h.sources.every(sourceUpToDate),
    );
    await advanceGradually(server, HCP_CRASHLOOP_BY_MS + 60_000);
    const stalledId = `hypershift-management.clusters.${HC_STALLED}`;
    const rows = await until(
      () => clusterListSchema.parse({ clusters: fleet!.summaries() }).clusters,
      (list) => list.find((row) => row.id === stalledId)?.worstSeverity === 'critical',
    );

    expect(rows.find((row) => row.id === 'hypershift-management')).toMatchObject({
      role: 'management',
      version: '4.16.8',
    });
    const hosted = rows.filter((row) => row.role === 'hosted');
    expect(hosted.map((row) => row.id).sort()).toEqual(
      [HC_HEALTHY, HC_ROLLING, HC_STALLED].map((name) => `hypershift-management.clusters.${name}`).sort(),
    );
    for (const row of hosted) expect(row.managedBy).toBe('hypershift-management');
    expect(rows.find((row) => row.id === 'hypershift-management')?.worstSeverity).not.toBe('critical');

    const health = clusterHealthSchema.parse(fleet.get(stalledId)!.health());
    expect(health.cluster).toMatchObject({
      role: 'hosted',
      managedBy: 'hypershift-management',
      version: '4.14.38',
      desiredVersion: '4.14.39',
    });
    const missing = health.findings.find(
      (finding) => finding.detector === 'featuregate-coverage' && finding.severity === 'critical',
    );
    expect(missing?.id).toBe(`featuregate-coverage:ConfigMap/clusters-${HC_STALLED}/feature-gate:missing-4.14.38`);
    expect(missing?.title).toBe('FeatureGate status dropped outgoing version 4.14.38 during the update');
    const crashes = missing!.evidence.filter((evidence) => evidence.kind === 'log');
    expect(crashes.length).toBeGreaterThanOrEqual(3);
    for (const evidence of crashes) {
      expect(evidence.ref?.namespace).toBe(`clusters-${HC_STALLED}`);
      expect(evidence.label).toMatch(/^Crash-looping consumer \(\d+ restarts?\)$/);
      expect(evidence.lines?.join('\n')).toContain('missing desired version "4.14.38"');
    }
    expect(crashes.map((evidence) => evidence.ref?.name).join(' ')).toMatch(/cluster-network-operator-/);
    expect(
      health.findings.find(
        (finding) => finding.id === `hosted-control-plane:HostedCluster/clusters/${HC_STALLED}:degraded`,
      )?.title,
    ).toContain('cluster-network-operator');
    expect(health.updateProgress?.workerPools).toEqual([
      expect.objectContaining({
        name: `${HC_STALLED}-us-east-1a`,
        totalNodes: 3,
        updatedNodes: 3,
        assessment: 'Completed',
      }),
    ]);
    expect(health.updateProgress?.controlPlane).toMatchObject({ targetVersion: '4.14.39', previousVersion: '4.14.38' });
    expect(health.hosted?.pods.find((pod) => pod.component === 'ingress-operator')).toMatchObject({
      ready: '1/2',
      status: 'CrashLoopBackOff',
    });

    const healthy = fleet.get(`hypershift-management.clusters.${HC_HEALTHY}`)!.health();
    expect(
      healthy.findings.filter((finding) => finding.severity === 'critical' || finding.severity === 'warning'),
    ).toEqual([]);
    const rolling = fleet.get(`hypershift-management.clusters.${HC_ROLLING}`)!.health();
    expect(NODEPOOL_UPDATE_AT_MS).toBeLessThan(HCP_CRASHLOOP_BY_MS);
    expect(rolling.updateProgress?.updating).toBe(true);
    expect(rolling.updateProgress?.workerPools.map((pool) => [pool.name, pool.assessment, pool.totalNodes])).toEqual([
      [`${HC_ROLLING}-us-east-1a`, 'Progressing', 3],
      [`${HC_ROLLING}-us-east-1b`, 'Progressing', 2],
    ]);
  }, 60_000);

  it('watches the HyperShift APIs only where discovery serves them, and picks them up when they appear', async () => {
    const server = await startTestServer({ seed: 2 });
    servers.push(server);
    runScenario(server.cluster, SCENARIOS['hypershift-management']!);
    // The management cluster before its operator installed HyperShift: the API server serves none of its APIs.
    const { client } = server.cluster;
    const crds = client
      .list('customresourcedefinitions')
      .filter((crd) => crd.metadata.name.endsWith('.hypershift.openshift.io'));
    expect(crds).toHaveLength(4);
    for (const crd of crds) client.delete('customresourcedefinitions', crd.metadata.name);
    const connection = createKubeConnection(server.kubeconfigPath('reader'), 'sim');
    const probes: string[] = [];
    const getText = connection.getText.bind(connection);
    connection.getText = (path, options) => {
      if (path.startsWith('/apis/hypershift.openshift.io/')) probes.push(path);
      return getText(path, options);
    };
    const engine = new ClusterEngine({ id: 'mgmt', name: 'mgmt', connection, optionalProbeMs: 200 });
    engines = [engine];
    fleet = new Fleet(engines);
    engine.start();
    const alone = await until(
      () => engine.health(),
      (h) => h.sources.length > 0 && h.sources.every(sourceUpToDate) && probes.length >= 2,
    );
    expect(alone.sources.map((s) => s.resource)).not.toContain('hostedclusters');
    expect(alone.sources.every(sourceUpToDate)).toBe(true);
    expect(fleet.summaries().map((row) => row.id)).toEqual(['mgmt']);
    installHyperShiftCrds(client);
    const rows = await until(
      () => fleet!.summaries(),
      (list) => list.length === 4,
    );
    expect(rows.filter((row) => row.role === 'hosted')).toHaveLength(3);
    expect(engine.health().sources.map((s) => s.resource)).toEqual(
      expect.arrayContaining(['hostedclusters', 'nodepools', 'hostedcontrolplanes', 'controlplanecomponents']),
    );
  }, 60_000);

  it('shows hosted rows stale with their management cluster when it stops answering (R13)', async () => {
    // the test server bookmarks every 200 ms; a lost server turns sources stale once their data is 2 s old
    const { server, engine } = await boot('hypershift-management', 3, { bookmarkIntervalMs: 200, staleAfterMs: 2_000 });
    engines = [engine];
    fleet = new Fleet(engines);
    engine.start();
    const synced = (rows: ClusterSummaryDto[]) => rows.length === 4 && rows.every(rowSynced);
    expect(synced(await until(() => fleet!.summaries(), synced))).toBe(true);
    servers.splice(servers.indexOf(server), 1);
    await server.close();
    const rows = await until(
      () => fleet!.summaries(),
      (list) => list.every((row) => row.sources.behind.length > 0),
      30_000,
    );
    for (const row of rows)
      expect(
        row.sources.behind.some((s) => s.status === 'stale' || s.status === 'unreachable'),
        row.id,
      ).toBe(true);
    expect(rows.filter((row) => row.role === 'hosted')).toHaveLength(3);
  }, 60_000);

  it('joins a hosted cluster configured twice into one row, by cluster id', async () => {
    const management = await boot('hypershift-management', 2);
    const own = await boot('hypershift-featuregate-drop', 4);
    const clusterID = (own.server.cluster.client.get('clusterversions', 'version')!.spec as { clusterID: string })
      .clusterID;
    const hc = management.server.cluster.client.get('hostedclusters', HC_STALLED, 'clusters')!;
    management.server.cluster.client.update('hostedclusters', { ...hc, spec: { ...(hc.spec as object), clusterID } });
    engines = [management.engine, own.engine];
    fleet = new Fleet(engines);
    const streamed: StreamMessage[] = [];
    const unsubscribe = fleet
      .streamSource(['hypershift-featuregate-drop'])
      .subscribe((message) => streamed.push(message));
    for (const engine of engines) engine.start();
    await advanceGradually(management.server, HCP_CRASHLOOP_BY_MS + 60_000);
    await advanceGradually(own.server, HCP_CRASHLOOP_BY_MS + 60_000);
    const alone = await until(
      () => own.engine.summary(),
      (row) => row.role === 'hosted',
    );
    expect(alone.managedBy).toBeUndefined();
    const rows = await until(
      () => fleet!.summaries(),
      (list) => list.find((row) => row.id === 'hypershift-featuregate-drop')?.managedBy !== undefined,
    );
    expect(rows.map((row) => row.id).sort()).toEqual([
      'hypershift-featuregate-drop',
      'hypershift-management',
      `hypershift-management.clusters.${HC_HEALTHY}`,
      `hypershift-management.clusters.${HC_ROLLING}`,
    ]);
    expect(rows.find((row) => row.id === 'hypershift-featuregate-drop')).toMatchObject({
      role: 'hosted',
      managedBy: 'hypershift-management',
    });
    const joined = await until(
      () => fleet!.get('hypershift-featuregate-drop')!.health(),
      (h) =>
        h.findings.some((finding) => finding.subject.kind === 'ConfigMap') &&
        h.findings.some((finding) => finding.subject.kind === 'FeatureGate'),
    );
    expect(joined.findings.some((finding) => finding.subject.kind === 'FeatureGate')).toBe(true);
    expect(
      joined.findings.some(
        (finding) => finding.subject.kind === 'ConfigMap' && finding.subject.namespace === `clusters-${HC_STALLED}`,
      ),
    ).toBe(true);
    expect(joined.hosted?.name).toBe(HC_STALLED);
    // The stream carries the joined member under its own id only: the management side's view of it is folded in.
    const joinedHealth = await until(
      () => streamed.filter((m) => m.type === 'health').at(-1),
      (m) =>
        m?.type === 'health' &&
        m.health.cluster.managedBy === 'hypershift-management' &&
        m.health.findings.some((f) => f.subject.kind === 'ConfigMap'),
    );
    expect(joinedHealth).toMatchObject({
      clusterId: 'hypershift-featuregate-drop',
      summary: { role: 'hosted', managedBy: 'hypershift-management' },
    });
    expect(new Set(streamed.map((m) => m.clusterId))).toEqual(new Set(['hypershift-featuregate-drop']));
    unsubscribe();
  }, 60_000);
});
