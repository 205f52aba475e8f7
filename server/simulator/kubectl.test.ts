import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installBaseCrds, installCrd, installHyperShiftCrds, loadCrd } from './crds';
import { startTestServer, type TestServer } from './test-harness';
import { testClusterVersion, testFeatureGate, testNamespace, testPod } from './test-objects';

const SUPPORTED_4_13 =
  '"openshift-samples", "baremetal", "marketplace", "Console", "Insights", "Storage", "CSISnapshot", "NodeTuning"';

describe('real kubectl against the simulated API server', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
    const client = t.cluster.client;
    installBaseCrds(client, { clusterVersionRelease: '4.14' });
    client.create('clusterversions', testClusterVersion());
    client.create('featuregates', testFeatureGate());
    client.create('namespaces', testNamespace('x'));
    client.create('pods', testPod('x', 'y'));
    t.cluster.logs.append('x', 'y', 'main', 'I1122 09:00:00.000000       1 start.go:42] starting');
    t.cluster.logs.append('x', 'y', 'main', 'I1122 09:00:01.000000       1 start.go:43] ready');
    t.cluster.proxy.registerPod('x', 'y', 29103, (path) =>
      path === '/metrics'
        ? {
            status: 200,
            contentType: 'text/plain; version=0.0.4',
            body: 'ovnkube_controller_pod_creation_latency_seconds_count 3\n',
          }
        : { status: 404, contentType: 'text/plain', body: 'not found\n' },
    );
  });
  afterAll(async () => t?.close());

  it('lists the product resources in api-resources', async () => {
    const { code, stdout } = await t.kubectl('reader', ['api-resources']);
    expect(code).toBe(0);
    for (const name of [
      'clusterversions',
      'featuregates',
      'clusteroperators',
      'clusterextensions',
      'clustercatalogs',
      'machineconfigpools',
      'poddisruptionbudgets',
      'leases',
    ]) {
      expect(stdout).toMatch(new RegExp(`^${name}\\s`, 'm'));
    }
  });

  it('serves the HyperShift API only once its CRDs are installed, as a standalone cluster has none', async () => {
    const before = await t.kubectl('reader', ['api-resources', '--api-group', 'hypershift.openshift.io']);
    expect(before.stdout).not.toMatch(/^hostedclusters\s/m);
    const missing = await t.kubectl('reader', ['get', 'hostedclusters', '-A']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/the server doesn't have a resource type "hostedclusters"/);
    installHyperShiftCrds(t.cluster.client);
    // kubectl caches discovery per server: ask without the cache.
    const after = await t.kubectl('reader', [
      'api-resources',
      '--api-group',
      'hypershift.openshift.io',
      '--cached=false',
    ]);
    expect(after.code).toBe(0);
    for (const name of ['hostedclusters', 'nodepools', 'hostedcontrolplanes', 'controlplanecomponents'])
      expect(after.stdout).toMatch(new RegExp(`^${name}\\s`, 'm'));
    const listed = await t.kubectl('reader', ['get', 'hostedclusters', '-A']);
    expect(listed.code).toBe(0);
  });

  it('gets ClusterVersion as YAML and FeatureGate as JSON', async () => {
    const yaml = await t.kubectl('reader', ['get', 'clusterversion', 'version', '-o', 'yaml']);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toContain('kind: ClusterVersion');
    expect(yaml.stdout).toContain('version: 4.14.10');
    const json = await t.kubectl('reader', ['get', 'featuregate', 'cluster', '-o', 'json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'FeatureGate', metadata: { name: 'cluster' } });
  });

  it('serves Tables with the CRD printer columns and virtual-time ages', async () => {
    t.cluster.clock.advance(61 * 60_000);
    const { code, stdout } = await t.kubectl('reader', ['get', 'clusterversion']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^NAME\s+VERSION\s+AVAILABLE\s+PROGRESSING\s+SINCE\s+STATUS/);
    expect(stdout).toMatch(/version\s+4\.14\.10\s+True/);
    const pods = await t.kubectl('reader', ['get', 'pods', '-n', 'x']);
    expect(pods.stdout).toMatch(/^y\s+0\/1\s+Running\s+0\s+61m$/m);
  });

  it('streams a change to `kubectl get pods -A -w`', async () => {
    const child = t.spawnKubectl('reader', ['get', 'pods', '-A', '-w', '-o', 'name']);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const waitFor = async (text: string) => {
      for (let i = 0; i < 200 && !out.includes(text); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return out.includes(text);
    };
    expect(await waitFor('pod/y')).toBe(true);
    t.cluster.client.create('pods', testPod('x', 'added-later'));
    expect(await waitFor('pod/added-later')).toBe(true);
    child.kill();
  });

  it('reads pod logs and a proxied /metrics', async () => {
    const logs = await t.kubectl('reader', ['logs', '-n', 'x', 'y', '--tail=1']);
    expect(logs.stdout).toBe('I1122 09:00:01.000000       1 start.go:43] ready\n');
    const metrics = await t.kubectl('reader', ['get', '--raw', '/api/v1/namespaces/x/pods/y:29103/proxy/metrics']);
    expect(metrics.code).toBe(0);
    expect(metrics.stdout).toContain('ovnkube_controller_pod_creation_latency_seconds_count 3');
  });

  it('validates a status patch against the installed ClusterVersion CRD, switching when it is replaced', async () => {
    const patch = [
      'patch',
      'clusterversion',
      'version',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"capabilities":{"enabledCapabilities":["MachineAPI"]}}}',
    ];
    const ok = await t.kubectl('admin', patch);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toContain('clusterversion.config.openshift.io/version patched');
    installCrd(t.cluster.client, loadCrd('ClusterVersion', '4.13'));
    const rejected = await t.kubectl('admin', [
      ...patch.slice(0, -1),
      '{"status":{"capabilities":{"enabledCapabilities":["MachineAPI","Console"]}}}',
    ]);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toBe(
      `The ClusterVersion "version" is invalid: status.capabilities.enabledCapabilities[0]: Unsupported value: "MachineAPI": supported values: ${SUPPORTED_4_13}\n`,
    );
    const raw = await t.raw('PATCH', '/apis/config.openshift.io/v1/clusterversions/version/status', {
      contentType: 'application/merge-patch+json',
      body: '{"status":{"capabilities":{"enabledCapabilities":["MachineAPI"]}}}',
    });
    expect(raw.status).toBe(422);
    expect(JSON.parse(raw.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `ClusterVersion.config.openshift.io "version" is invalid: status.capabilities.enabledCapabilities[0]: Unsupported value: "MachineAPI": supported values: ${SUPPORTED_4_13}`,
      reason: 'Invalid',
      details: {
        name: 'version',
        group: 'config.openshift.io',
        kind: 'ClusterVersion',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: `Unsupported value: "MachineAPI": supported values: ${SUPPORTED_4_13}`,
            field: 'status.capabilities.enabledCapabilities[0]',
          },
        ],
      },
      code: 422,
    });
  });

  it('answers 415 to a strategic merge patch of a custom resource', async () => {
    const result = await t.kubectl('admin', [
      'patch',
      'clusterversion',
      'version',
      '-p',
      '{"spec":{"channel":"fast-4.14"}}',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'application/strategic-merge-patch+json is not supported by config.openshift.io/v1, Kind=ClusterVersion',
    );
  });

  it('enforces identities: 403 for restricted pods, 403 for reader writes, 401 for a wrong token', async () => {
    const restricted = await t.kubectl('restricted', ['get', 'pods', '-A']);
    expect(restricted.code).toBe(1);
    expect(restricted.stderr).toContain(
      'Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:openshift-update-health:restricted" cannot list resource "pods" in API group "" at the cluster scope',
    );
    expect((await t.kubectl('restricted', ['get', 'clusterversion'])).code).toBe(0);
    const write = await t.kubectl('reader', ['delete', 'pod', '-n', 'x', 'y']);
    expect(write.code).toBe(1);
    expect(write.stderr).toContain(
      'pods "y" is forbidden: User "system:serviceaccount:openshift-update-health:reader" cannot delete resource "pods" in API group "" in the namespace "x"',
    );
    const anonymous = await t.raw('GET', '/api/v1/pods', { identity: 'none' });
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({ reason: 'Unauthorized', code: 401 });
  });

  it('answers 404 with the real wording', async () => {
    const result = await t.kubectl('reader', ['get', 'clusterversion', 'nope']);
    expect(result.stderr).toContain(
      'Error from server (NotFound): clusterversions.config.openshift.io "nope" not found',
    );
    expect((await t.raw('GET', '/openapi/v2')).status).toBe(404);
  });
});
