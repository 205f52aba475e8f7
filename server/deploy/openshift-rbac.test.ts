/**
 * The RBAC deploy/openshift ships is enough for the dashboard to do its job, and no more: an embedded cluster's
 * authorizer (RBAC evaluated per request as the API server does, resourceNames and namespaced Roles included) holds
 * exactly the rendered roles and bindings of the dashboard's account, and the real watch layer, log poller, ovnkube
 * scrape and alerts poller run under that account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import { DETECTORS, requiredLogs } from '@/lib/health/registry';
import { ClusterEngine } from '@/server/engine/cluster-engine';
import { LogPoller } from '@/server/engine/log-poller';
import { createKubeConnection } from '@/server/kube/kube-connection';
import type { ClusterConnection } from '@/server/kube/connection';
import { inClusterAlerts } from '@/server/metrics/alerts-poller';
import { ScrapeSource } from '@/server/metrics/scrape-source';
import { SERVICE_NAMESPACE } from '@/server/simulator/access/access-seed';
import { IDENTITY_USERS } from '@/server/simulator/auth';
import { runScenario } from '@/server/simulator/core';
import { SCENARIOS } from '@/server/simulator/scenarios/registry';
import { startTestServer, type TestServer } from '@/server/simulator/test-harness';
import { UPSTREAM_ONLY_NAMESPACES } from '@/lib/health/source-applicability';
import { UPSTREAM_OLMV1_NAMESPACE } from '@/lib/health/shared/olmv1-presence';
import { renderOpenShiftManifests, type Manifest } from './rendered-manifests';

const RBAC_RESOURCES: Record<string, ResourceName> = {
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
};

let server: TestServer;
let connection: ClusterConnection;
const stops: (() => void)[] = [];

/** The embedded `restricted` account plays the dashboard's: its seeded role goes, the rendered RBAC comes. */
function installRenderedRbac(test: TestServer): void {
  const rendered = renderOpenShiftManifests();
  const deployment = rendered.find((m) => m.kind === 'Deployment')!;
  const account = (deployment as Manifest & { spec: { template: { spec: { serviceAccountName: string } } } }).spec
    .template.spec.serviceAccountName;
  const stand = IDENTITY_USERS.restricted.name.split(':').at(-1)!;
  const client = test.cluster.as('kubectl');
  for (const binding of client.list('clusterrolebindings')) {
    const subjects = (binding as KubeObject & { subjects?: { name: string }[] }).subjects ?? [];
    if (subjects.some((s) => s.name === stand)) client.delete('clusterrolebindings', binding.metadata.name);
  }
  type Subject = { kind: string; name: string; namespace?: string };
  type Binding = Manifest & { roleRef: { name: string }; subjects: Subject[] };
  const ours = (m: Manifest) =>
    (m.kind === 'ClusterRoleBinding' || m.kind === 'RoleBinding') &&
    (m as Binding).subjects.some((s) => s.kind === 'ServiceAccount' && s.name === account);
  const bindings = rendered.filter(ours) as Binding[];
  const roles = rendered.filter(
    (m) =>
      (m.kind === 'ClusterRole' || m.kind === 'Role') &&
      bindings.some((b) => b.roleRef.name === m.metadata.name && b.metadata.namespace === m.metadata.namespace),
  );
  for (const object of [...roles, ...bindings]) {
    // Renamed: the embedded cluster seeds its own update-health-reader binding for the reader account.
    const copy = structuredClone(object) as unknown as KubeObject & Partial<Binding>;
    copy.metadata.name = `deployed-${copy.metadata.name}`;
    if (copy.roleRef) copy.roleRef.name = `deployed-${copy.roleRef.name}`;
    if (copy.subjects) copy.subjects = [{ kind: 'ServiceAccount', name: stand, namespace: SERVICE_NAMESPACE }];
    client.create(RBAC_RESOURCES[object.kind], copy);
  }
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  server = await startTestServer();
  // A 4.18 story: OLMv1 (catalogd, operator-controller) runs there, so its logs and workloads are read too.
  runScenario(server.cluster, SCENARIOS['extension-install-flap']!);
  installRenderedRbac(server);
  connection = createKubeConnection(server.kubeconfigPath('restricted'), 'sim');
});

afterAll(async () => {
  for (const stop of stops) stop();
  await server?.close();
});

describe('deploy/openshift RBAC on a cluster', () => {
  it('lets every watch the detectors start sync; the upstream-only OLMv1 namespace does not apply there', async () => {
    const engine = new ClusterEngine({ id: 'deployed', name: 'deployed', connection });
    stops.push(() => engine.stop());
    engine.start();
    // Looked at, the cluster reads its active tier too: every watch the detectors start.
    engine.view();
    const sources = await until(() => {
      const states = engine.health().sources;
      return engine.active() && states.length > 0 && states.every((s) => s.status !== 'pending' && s.status !== 'idle')
        ? states
        : undefined;
    }, 'every source to leave pending');
    const outcome = sources.map((s) => `${s.resource}${s.namespace ? ` in ${s.namespace}` : ''}: ${s.status}`).sort();
    const expected = sources
      .map(
        (s) =>
          `${s.resource}${s.namespace ? ` in ${s.namespace}` : ''}: ${
            // A namespace OpenShift never has (the RBAC cannot bind it): not read on OpenShift, and no failure.
            UPSTREAM_ONLY_NAMESPACES.has(s.namespace ?? '') ? 'not-applicable' : 'synced'
          }`,
      )
      .sort();
    expect(outcome).toEqual(expected);
    expect(sources.filter((s) => s.status === 'synced').length).toBeGreaterThan(15);
  });

  it('keeps the same refusal forbidden on a cluster that does not serve the ClusterVersion API (not OpenShift)', async () => {
    const fault = server.cluster.faults.add({ resource: 'clusterversions', verb: 'any', kind: 'status', status: 404 });
    try {
      const engine = new ClusterEngine({ id: 'upstream', name: 'upstream', connection });
      stops.push(() => engine.stop());
      engine.start();
      const sources = await until(() => {
        const states = engine.health().sources;
        const answered = (resource: string, namespace?: string) =>
          states.find((s) => s.resource === resource && s.namespace === namespace && s.error);
        return answered('clusterversions') && answered('deployments', UPSTREAM_OLMV1_NAMESPACE) ? states : undefined;
      }, 'the ClusterVersion and upstream OLMv1 watches to answer');
      const upstream = sources.filter((s) => s.namespace === UPSTREAM_OLMV1_NAMESPACE && s.resource !== 'pods');
      expect(upstream.map((s) => `${s.resource}: ${s.status}`).sort()).toEqual([
        'deployments: forbidden',
        'leases: forbidden',
      ]);
    } finally {
      server.cluster.faults.clear(fault);
    }
  });

  it("reads the logs detectors corroborate with, and no other namespace's", async () => {
    const needs = requiredLogs(DETECTORS);
    const poller = new LogPoller(connection, needs, () => undefined, 50);
    stops.push(() => poller.stop());
    poller.start();
    const namespaces = await until(() => {
      const seen = new Set(poller.excerpts().map((e) => e.ref.namespace));
      return needs.every((need) => seen.has(need.namespace)) ? seen : undefined;
    }, 'an excerpt from every polled namespace');
    expect([...namespaces].sort()).toEqual([...new Set(needs.map((n) => n.namespace))].sort());
    const pod = server.cluster.client.list('pods', { namespace: 'openshift-catalogd' })[0];
    const elsewhere = await connection.getText(`/api/v1/namespaces/openshift-catalogd/pods/${pod.metadata.name}/log`);
    expect(elsewhere.status).toBe(403);
  });

  it('scrapes ovnkube through the pod proxy and reads alerts through the Thanos service proxy', async () => {
    const scrape = new ScrapeSource(connection, { intervalMs: 60_000 });
    await scrape.scrapeOnce();
    expect(scrape.error()).toBeUndefined();
    const alerts = await inClusterAlerts(connection)();
    expect(alerts.state).toBe('ok');
    const otherPort = '/api/v1/namespaces/openshift-monitoring/services/https:thanos-querier:9092/proxy/api/v1/alerts';
    const otherService = await connection.getText(otherPort);
    expect(otherService.status).toBe(403);
  });

  it('creates the two reviews, and reads no ConfigMap but the feature gates and no Deployment not named', async () => {
    const post = (path: string, body: unknown) =>
      server.raw('POST', path, { identity: 'restricted', contentType: 'application/json', body: JSON.stringify(body) });
    const tokenReview = await post('/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: server.served.tokens.reader },
    });
    expect(tokenReview.status).toBe(201);
    const review = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'sre',
        groups: ['sre'],
        resourceAttributes: { verb: 'get', group: 'config.openshift.io', resource: 'clusterversions' },
      },
    });
    expect(review.status).toBe(201);
    const get = (path: string) => server.raw('GET', path, { identity: 'restricted' }).then((answer) => answer.status);
    expect(await get('/api/v1/namespaces/openshift-config/configmaps')).toBe(403);
    expect(await get('/api/v1/configmaps?fieldSelector=metadata.name%3Dfeature-gate')).toBe(200);
    // The client CA by name (absent on the embedded cluster: 404, not 403), no other ConfigMap of kube-system.
    expect(await get('/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication')).toBe(404);
    expect(await get('/api/v1/namespaces/kube-system/configmaps')).toBe(403);
    const mco = '/apis/apps/v1/namespaces/openshift-machine-config-operator/deployments';
    expect(await get('/apis/apps/v1/deployments')).toBe(403);
    expect(await get(mco)).toBe(403);
    expect(await get(`${mco}?fieldSelector=metadata.name%3Dmachine-config-operator`)).toBe(200);
  });
});
