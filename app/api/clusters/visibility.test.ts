/**
 * The routes as restricted viewers see them, through the real access path: the auth service asks the embedded
 * API server (SubjectAccessReview against its RBAC) for users bound to narrow ClusterRoles and Roles.
 */
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterHealthSchema, clusterListSchema, type ClusterHealthDto } from '@/lib/api/dto';
import { AuthService } from '@/server/auth/auth-service';
import type { Viewer } from '@/server/auth/identity';
import type { IncidentDto } from '@/lib/api/incident-dto';
import type { IncidentRepository } from '@/server/incidents/incident-repository';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { Fleet } from '@/server/engine/fleet';
import type { AuthEnv } from '@/server/env';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { runScenario } from '@/server/simulator/core';
import { HC_STALLED } from '@/server/simulator/scenarios/hypershift-management';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import type { ScenarioName } from '@/server/simulator/types';
import { GET as getHealth } from './[id]/health/route';
import { GET as getRollbackPlan } from './[id]/rollback-plan/route';
import { GET as getSeries } from './[id]/series/route';
import { GET as getLatency } from './[id]/metrics/pod-setup-latency/route';
import { GET as getStream } from '../stream/route';
import { sourceUpToDate } from '@/lib/health/tiers';

const STANDALONE = 'catalogd-rollout';
const MANAGEMENT = 'hypershift-management';
const HOSTED = `${MANAGEMENT}.clusters.${HC_STALLED}`;

const holder = globalThis as unknown as { __updateHealthFleet?: Fleet; __updateHealthAuth?: AuthService };
const servers: TestServer[] = [];
const engines: ClusterEngine[] = [];

const user = (name: string): Extract<Viewer, { kind: 'user' }> => ({
  kind: 'user',
  user: { name, groups: ['system:authenticated'] },
  via: 'bearer',
});
const onlyClusterVersion = user('cv-viewer');
const onlyHostedCluster = user('hc-viewer');
const nobody = user('nobody');

/** RBAC objects applied with kubectl as the cluster admin, as an administrator would. */
function rbac(name: string, rules: unknown[], namespace?: string): string {
  const kind = namespace ? 'Role' : 'ClusterRole';
  const meta = (n: string) => ({ name: n, ...(namespace ? { namespace } : {}) });
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: meta(name), rules },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: `${kind}Binding`,
        metadata: meta(name),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }],
      },
    ],
  });
}

async function boot(name: ScenarioName, seed: number, grant: string): Promise<ClusterEngine> {
  const server = await startTestServer({ seed });
  servers.push(server);
  runScenario(server.cluster, SCENARIOS[name]!);
  const applied = await server.kubectl('admin', ['apply', '--validate=false', '-f', '-'], grant);
  expect(applied.code, applied.stderr).toBe(0);
  const engine = new ClusterEngine({
    id: name,
    name,
    connection: createKubeConnection(server.kubeconfigPath('reader'), 'sim'),
  });
  engines.push(engine);
  return engine;
}

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the fleet');
    for (const engine of engines) engine.evaluateNow();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const request = (path: string, viewer: Viewer, signal?: AbortSignal) =>
  new NextRequest(`http://localhost${path}`, { headers: { [VIEWER_HEADER]: encodeViewer(viewer) }, signal });

async function healthAs(viewer: Viewer, id: string): Promise<ClusterHealthDto> {
  const response = await getHealth(request(`/api/clusters/${id}/health`, viewer), ctx(id));
  expect(response.status).toBe(200);
  return clusterHealthSchema.parse(await response.json());
}

beforeAll(async () => {
  const standalone = await boot(
    STANDALONE,
    3,
    rbac('cv-viewer', [
      {
        apiGroups: ['config.openshift.io'],
        resources: ['clusterversions'],
        resourceNames: ['version'],
        verbs: ['get'],
      },
    ]),
  );
  const management = await boot(
    MANAGEMENT,
    2,
    rbac(
      'hc-viewer',
      [{ apiGroups: ['hypershift.openshift.io'], resources: ['hostedclusters'], verbs: ['get', 'list', 'watch'] }],
      'clusters',
    ),
  );
  const fleet = new Fleet([standalone, management]);
  holder.__updateHealthFleet = fleet;
  holder.__updateHealthAuth = new AuthService(
    { UPDATE_HEALTH_AUTH: 'openshift' } as AuthEnv,
    () => {
      throw new Error('no sessions in this test');
    },
    () => STANDALONE,
    (clusterId, path, body) => fleet.review(clusterId, path, body),
  );
  for (const engine of engines) engine.start();
  // The viewers below have the clusters' pages open: the hosted control plane's pods are read on the active tier.
  for (const engine of engines) engine.view();
  await until(() =>
    engines.every((engine) => engine.health().sources.length > 0 && engine.health().sources.every(sourceUpToDate)),
  );
  await until(() => !!fleet.get(HOSTED)?.health().hosted?.pods.length);
});

afterAll(async () => {
  holder.__updateHealthFleet?.stop();
  delete holder.__updateHealthFleet;
  delete holder.__updateHealthAuth;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('derived views through the real access path', () => {
  it('the full health has update progress, recommendations and hosted control-plane pods', () => {
    const health = holder.__updateHealthFleet!.get(STANDALONE)!.health();
    expect(health.updateProgress?.controlPlane.operators.total).toBeGreaterThan(0);
    expect(health.updateRecommendations).not.toBeNull();
    expect(holder.__updateHealthFleet!.get(HOSTED)!.health().hosted?.pods.length).toBeGreaterThan(0);
  });

  it('get clusterversion alone: version facts, and nothing derived from objects the viewer cannot read', async () => {
    const full = holder.__updateHealthFleet!.get(STANDALONE)!.health();
    const seen = await healthAs(onlyClusterVersion, STANDALONE);
    expect(seen.cluster.version).toBe(full.cluster.version);
    expect(seen.updateProgress).toBeNull();
    expect(seen.updateRecommendations).toBeNull();
    expect(seen.findings.filter((f) => f.detector === 'update-progress')).toEqual([]);
    expect(seen.access?.hiddenViews?.updateProgress).toEqual(
      expect.arrayContaining(['list nodes', 'list clusteroperators.config.openshift.io']),
    );
    expect(seen.access?.hiddenViews?.updateRecommendations).toEqual(
      expect.arrayContaining(['list poddisruptionbudgets.policy']),
    );
    expect(seen.access?.missing.join(' ')).not.toMatch(/"|\bin namespace\b/);
    const sent = JSON.stringify(seen);
    for (const name of full.updateProgress?.controlPlane.updatingOperators ?? []) expect(sent).not.toContain(name);
    expect(sent).not.toContain('catalogd-controller-manager');

    const plan = await getRollbackPlan(
      request(`/api/clusters/${STANDALONE}/rollback-plan?to=4.15.0`, onlyClusterVersion),
      ctx(STANDALONE),
    );
    expect(plan.status).toBe(403);
    const body = await plan.text();
    expect(body).toContain('list clusteroperators.config.openshift.io');
    expect(body).not.toContain('"version\\"');
  });

  it('get hostedclusters alone: the hosted cluster, but neither its control-plane pods nor its progress', async () => {
    const full = holder.__updateHealthFleet!.get(HOSTED)!.health();
    const seen = await healthAs(onlyHostedCluster, HOSTED);
    expect(seen.cluster.desiredVersion).toBe(full.cluster.desiredVersion);
    expect(seen.hosted).toBeUndefined();
    expect(seen.updateProgress).toBeNull();
    expect(seen.access?.hiddenViews?.hosted).toEqual(expect.arrayContaining(['list pods']));
    const sent = JSON.stringify(seen);
    for (const pod of full.hosted!.pods) expect(sent).not.toContain(pod.name);
    expect(sent).not.toContain(full.hosted!.hcpNamespace);
  });
});

describe('a hidden cluster answers like an unknown one on every route', () => {
  const unknown = 'no-such-cluster';
  const routes: [string, (id: string, viewer: Viewer) => Promise<Response>][] = [
    ['health', (id, viewer) => getHealth(request(`/api/clusters/${id}/health`, viewer), ctx(id))],
    ['series', (id, viewer) => getSeries(request(`/api/clusters/${id}/series`, viewer), ctx(id))],
    [
      'rollback-plan',
      (id, viewer) => getRollbackPlan(request(`/api/clusters/${id}/rollback-plan?to=4.15.0`, viewer), ctx(id)),
    ],
    [
      'pod-setup-latency',
      (id, viewer) => getLatency(request(`/api/clusters/${id}/metrics/pod-setup-latency`, viewer), ctx(id)),
    ],
    ['stream', (id, viewer) => getStream(request(`/api/stream?clusters=${id}`, viewer))],
  ];

  it.each(routes)(
    '%s: same status and body (but for the id asked) for a hidden and an unknown cluster',
    async (_, call) => {
      const hidden = await call(STANDALONE, nobody);
      const missing = await call(unknown, nobody);
      expect(hidden.status).toBe(404);
      expect(missing.status).toBe(404);
      expect((await hidden.text()).replaceAll(STANDALONE, unknown)).toBe(await missing.text());
    },
  );

  it('answers 401 JSON on every route to a request the edge did not authenticate', async () => {
    const anonymous = (path: string) => new NextRequest(`http://localhost${path}`);
    const responses = await Promise.all([
      getHealth(anonymous(`/api/clusters/${STANDALONE}/health`), ctx(STANDALONE)),
      getSeries(anonymous(`/api/clusters/${STANDALONE}/series`), ctx(STANDALONE)),
      getRollbackPlan(anonymous(`/api/clusters/${STANDALONE}/rollback-plan?to=4.15.0`), ctx(STANDALONE)),
      getLatency(anonymous(`/api/clusters/${STANDALONE}/metrics/pod-setup-latency`), ctx(STANDALONE)),
      getStream(anonymous(`/api/stream?clusters=${STANDALONE}`)),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
  });

  it('the stream still opens for a viewer who may see the cluster', async () => {
    const abort = new AbortController();
    const response = await getStream(request(`/api/stream?clusters=${STANDALONE}`, onlyClusterVersion, abort.signal));
    expect(response.status).toBe(200);
    abort.abort();
    await response.body?.cancel();
  });
});

describe('an incident frozen from a must-gather', () => {
  it('is read by its creator only (and must-gather administrators), never through a fleet cluster of that name', async () => {
    const { createIncident } = await import('@/server/incidents/incident-service');
    const { incidentFor } = await import('@/server/auth/visibility');
    const { scenarioSource } = await import('@/server/testing/incident-source');
    const { mustGatherClusterId } = await import('@/lib/api/must-gather-dto');
    const stored: IncidentDto[] = [];
    const repository = {
      create: async (incident: IncidentDto) => {
        stored.push(incident);
      },
    } as unknown as IncidentRepository;
    const source = { ...scenarioSource(STANDALONE, 30 * 60_000), id: mustGatherClusterId('r1'), name: STANDALONE };
    await createIncident(source, repository, { createdBy: 'cv-viewer', limits: null });
    const incident = stored[0]!;
    expect((await incidentFor(onlyClusterVersion, incident))?.id).toBe(incident.id);
    expect(await incidentFor(nobody, incident)).toBeUndefined();
    expect(await incidentFor(user('admin'), incident)).toBeDefined();
  });
});

describe('an incident of a cluster that left the fleet', () => {
  it('stays readable by its creator and the must-gather administrators, and no one else', async () => {
    const { createIncident } = await import('@/server/incidents/incident-service');
    const { incidentFor } = await import('@/server/auth/visibility');
    const { scenarioSource } = await import('@/server/testing/incident-source');
    const stored: IncidentDto[] = [];
    const repository = {
      create: async (incident: IncidentDto) => {
        stored.push(incident);
      },
    } as unknown as IncidentRepository;
    // Frozen from a fleet cluster that a hub has since deleted: its id is in no fleet any more.
    const source = { ...scenarioSource(STANDALONE, 30 * 60_000), id: 'spoke-deleted', name: 'spoke-deleted' };
    await createIncident(source, repository, { createdBy: 'cv-viewer', limits: null });
    const incident = stored[0]!;
    expect((await incidentFor(onlyClusterVersion, incident))?.id).toBe(incident.id);
    expect(await incidentFor(nobody, incident)).toBeUndefined();
    expect(await incidentFor(user('admin'), incident)).toBeDefined();
  });
});

describe('a kubeconfig source as viewers see it', () => {
  it('is named by its base name, without error detail; the local operator gets the path and the detail', async () => {
    const { GET: getList } = await import('./route');
    const { kubeconfigSource } = await import('@/server/fleet-sources/kubeconfig-source');
    const fleet = holder.__updateHealthFleet!;
    const standalone = engines.find((engine) => engine.id === STANDALONE)!;
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'uh-operator-home-'));
    // The directory exists (it is watched); the file does not, yet.
    const path = join(dir, 'prod-fleet.yaml');
    const logged: string[] = [];
    const source = kubeconfigSource(path, { warn: (message) => logged.push(message), pollMs: 60_000 });
    fleet.follow([source]);
    standalone.setDiscovery({ discoveredBy: { kind: 'kubeconfig', name: path } });
    try {
      await until(() => standalone.health().cluster.discoveredBy?.name === path);
      const listAs = async (viewer: Viewer) => {
        const response = await getList(request('/api/clusters', viewer));
        expect(response.status).toBe(200);
        return clusterListSchema.parse(await response.json());
      };

      const viewerList = await listAs(onlyClusterVersion);
      expect(viewerList.clusters.find((row) => row.id === STANDALONE)?.discoveredBy).toEqual({
        kind: 'kubeconfig',
        name: 'prod-fleet.yaml',
      });
      // Never read, the file is still to be listed: listing, and why it is not.
      expect(viewerList.membership?.sources).toEqual([
        {
          kind: 'kubeconfig',
          name: 'prod-fleet.yaml',
          listing: true,
          error: {
            message: 'the kubeconfig prod-fleet.yaml cannot be read now; the clusters read before are kept',
            since: expect.any(String),
          },
        },
      ]);
      expect(JSON.stringify(viewerList)).not.toContain(dir);
      expect((await healthAs(onlyClusterVersion, STANDALONE)).cluster.discoveredBy?.name).toBe('prod-fleet.yaml');

      const localList = await listAs({ kind: 'local' });
      expect(localList.clusters.find((row) => row.id === STANDALONE)?.discoveredBy?.name).toBe(path);
      expect(localList.membership?.sources[0]).toMatchObject({ name: path });
      expect(localList.membership?.sources[0]?.error?.message).toBe(
        `cannot read ${path}: ENOENT: no such file or directory, open '${path}'`,
      );
      // The server log has it all, once.
      expect(logged).toEqual([localList.membership?.sources[0]?.error?.message]);
    } finally {
      source.stop();
      standalone.setDiscovery({});
    }
  });
});
