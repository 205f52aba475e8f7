import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCluster, type ServedCluster } from '../api-server';
import { createSimulatedCluster } from '../core';
import { installBaseCrds } from '../crds';
import { buildKubeconfig } from '../kubeconfig';
import { testClusterVersion, testNamespace } from '../test-objects';
import type { HubMember } from './hub-controller';
import { startHub, type EmbeddedHub } from './serve-hub';

const NS = 'openshift-update-health';
const TTL_S = 600;
const GRACE_S = 30;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the embedded ACM hub, driven by real kubectl', () => {
  let dir: string;
  let hub: EmbeddedHub;
  const served: ServedCluster[] = [];
  const members: HubMember[] = [];

  const kubectl = (kubeconfig: string, args: string[], input?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = execFile(
        'kubectl',
        ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
        { timeout: 20_000 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  const hubAs = (identity: 'admin' | 'reader') => join(dir, `hub-${identity}.yaml`);
  /** A kubeconfig reaching `cluster` through cluster-proxy with `token`, as a ClusterProfile consumer builds it. */
  const viaProxy = (cluster: string, token: string) => {
    const path = join(dir, `proxy-${cluster}-${token.slice(-8)}.yaml`);
    writeFileSync(
      path,
      buildKubeconfig([{ name: cluster, server: `${hub.proxy.url}/${cluster}`, caData: hub.proxy.caData, token }]),
    );
    return path;
  };
  const syncedToken = async (cluster: string): Promise<string> => {
    const run = await kubectl(hubAs('reader'), [
      'get',
      'secret',
      '-n',
      NS,
      `${cluster}-update-health`,
      '-o',
      'jsonpath={.data.token}',
    ]);
    expect(run.stderr).toBe('');
    return Buffer.from(run.stdout, 'base64').toString();
  };
  const waitFor = async (check: () => Promise<boolean>, what: string) => {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const simControl = (method: string, path: string, body?: unknown): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${hub.server.url}/__sim/${path}`,
        {
          method,
          headers: { Authorization: `Bearer ${hub.server.tokens.admin}`, 'Content-Type': 'application/json' },
          ca: Buffer.from(hub.server.caData, 'base64').toString(),
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-test-'));
    for (const [index, name] of ['east-1', 'west-2'].entries()) {
      const cluster = createSimulatedCluster({ seed: index + 1 });
      installBaseCrds(cluster.client, { clusterVersionRelease: '4.14' });
      const version = testClusterVersion();
      const spec = { ...(version.spec as object), clusterID: `cid-${name}` };
      cluster.client.create('clusterversions', { ...version, spec });
      const server = await serveCluster(cluster, { bookmarkIntervalMs: 200 });
      served.push(server);
      members.push({ name, url: server.url, caData: server.caData, cluster });
    }
    hub = await startHub(members, { tokenTtlSeconds: TTL_S, tokenGraceSeconds: GRACE_S, bookmarkIntervalMs: 200 });
    writeFileSync(hubAs('admin'), hub.kubeconfig('admin'));
    writeFileSync(hubAs('reader'), hub.kubeconfig('reader'));
  });
  afterAll(async () => {
    await hub?.close();
    await Promise.all(served.map((server) => server.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists ManagedClusters with their cluster-id claim and Available condition', async () => {
    const table = await kubectl(hubAs('reader'), ['get', 'managedclusters']);
    expect(table.stderr).toBe('');
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+HUB ACCEPTED\s+MANAGED CLUSTER URLS\s+JOINED\s+AVAILABLE/);
    expect(table.stdout).toMatch(/^east-1\s+true\s+https:\/\/127\.0\.0\.1:\d+\s+True\s+True/m);
    const json = await kubectl(hubAs('reader'), ['get', 'managedcluster', 'west-2', '-o', 'json']);
    const cluster = JSON.parse(json.stdout) as { status: { clusterClaims: { name: string; value: string }[] } };
    expect(cluster.status.clusterClaims).toContainEqual({ name: 'id.openshift.io', value: 'cid-west-2' });
    const sets = await kubectl(hubAs('reader'), ['get', 'managedclustersetbindings', '-n', NS, '-o', 'name']);
    expect(sets.stdout.trim()).toBe('managedclustersetbinding.cluster.open-cluster-management.io/update-health');
  });

  it('keeps a ClusterProfile per cluster in the bound namespace, pointing at cluster-proxy', async () => {
    const run = await kubectl(hubAs('reader'), ['get', 'clusterprofiles', '-n', NS, '-o', 'json']);
    expect(run.stderr).toBe('');
    const items = (
      JSON.parse(run.stdout) as { items: { metadata: { name: string; labels: object }; status: object }[] }
    ).items;
    expect(items.map((item) => item.metadata.name)).toEqual(['east-1', 'west-2']);
    expect(items[0].metadata.labels).toMatchObject({
      'x-k8s.io/cluster-manager': 'open-cluster-management',
      'open-cluster-management.io/cluster-name': 'east-1',
    });
    expect(items[0].status).toMatchObject({
      accessProviders: [
        {
          name: 'open-cluster-management',
          cluster: {
            server: `${hub.proxy.url}/east-1`,
            'certificate-authority-data': hub.proxy.caData,
            extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { clusterName: 'east-1' } }],
          },
        },
      ],
    });
    const addons = await kubectl(hubAs('reader'), ['get', 'managedclusteraddons', '-n', 'east-1', '-o', 'name']);
    expect(addons.stdout).toContain('managedclusteraddon.addon.open-cluster-management.io/cluster-proxy');
    expect(addons.stdout).toContain('managedclusteraddon.addon.open-cluster-management.io/managed-serviceaccount');
  });

  it('reads a ClusterVersion through cluster-proxy with the synced managed-serviceaccount token', async () => {
    const token = await syncedToken('east-1');
    const agent = await kubectl(hubAs('reader'), [
      'get',
      'secret',
      '-n',
      'east-1',
      'update-health',
      '-o',
      'jsonpath={.data.token} {.data.ca\\.crt}',
    ]);
    const [agentToken, ca] = agent.stdout.split(' ');
    expect(Buffer.from(agentToken, 'base64').toString()).toBe(token);
    expect(ca).toBe(members[0].caData);
    const run = await kubectl(viaProxy('east-1', token), ['get', 'clusterversion', 'version', '-o', 'json']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ spec: { clusterID: 'cid-east-1' } });
    // The token is east-1's: west-2 does not know it.
    const other = await kubectl(viaProxy('west-2', token), ['get', 'clusterversion', 'version']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/Unauthorized|provide credentials/);
  });

  it('streams a watch through cluster-proxy', async () => {
    const token = await syncedToken('west-2');
    const child = spawn(
      'kubectl',
      ['--kubeconfig', viaProxy('west-2', token), '--cache-dir', join(dir, 'cache'), 'get', 'ns', '-w', '-o', 'name'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      members[1].cluster.client.create('namespaces', testNamespace('before-watch'));
      await waitFor(async () => out.includes('namespace/before-watch'), 'the initial list');
      members[1].cluster.client.create('namespaces', testNamespace('during-watch'));
      await waitFor(async () => out.includes('namespace/during-watch'), 'the watch event');
    } finally {
      child.kill();
    }
  });

  it('rotates the token: the Secret carries the new one, the old one answers 401 after its grace', async () => {
    const old = await syncedToken('east-1');
    hub.cluster.clock.advance(TTL_S * 1000);
    await waitFor(async () => (await syncedToken('east-1')) !== old, 'the rotated Secret');
    const fresh = await syncedToken('east-1');
    expect((await kubectl(viaProxy('east-1', fresh), ['get', 'clusterversion', 'version'])).code).toBe(0);
    expect((await kubectl(viaProxy('east-1', old), ['get', 'clusterversion', 'version'])).code).toBe(0);
    hub.cluster.clock.advance(GRACE_S * 1000);
    const expired = await kubectl(viaProxy('east-1', old), ['get', 'clusterversion', 'version']);
    expect(expired.code).not.toBe(0);
    expect(expired.stderr).toMatch(/Unauthorized|provide credentials/);
    expect((await kubectl(viaProxy('east-1', fresh), ['get', 'clusterversion', 'version'])).code).toBe(0);
    const msa = await kubectl(hubAs('reader'), [
      'get',
      'managedserviceaccount',
      '-n',
      'east-1',
      'update-health',
      '-o',
      'json',
    ]);
    const status = (JSON.parse(msa.stdout) as { status: { expirationTimestamp: string; tokenSecretRef: object } })
      .status;
    expect(status.tokenSecretRef).toMatchObject({ name: 'update-health' });
    expect(Date.parse(status.expirationTimestamp)).toBe(hub.cluster.clock.now() + TTL_S * 1000);
  });

  it('marks a cluster hub-unavailable and fails its proxy with 502 on request', async () => {
    expect(await simControl('POST', 'hub/available', { cluster: 'west-2', status: 'Unknown' })).toBe(200);
    const table = await kubectl(hubAs('reader'), ['get', 'managedcluster', 'west-2']);
    expect(table.stdout).toMatch(/^west-2\s+true\s+\S+\s+True\s+Unknown/m);
    await waitFor(async () => {
      const profile = await kubectl(hubAs('reader'), [
        'get',
        'clusterprofile',
        '-n',
        NS,
        'west-2',
        '-o',
        'jsonpath={.status.conditions[?(@.type=="ControlPlaneHealthy")].status}',
      ]);
      return profile.stdout === 'Unknown';
    }, 'ControlPlaneHealthy to follow');
    expect(await simControl('POST', 'hub/available', { cluster: 'west-2', status: 'Maybe' })).toBe(400);
    expect(await simControl('POST', 'hub/available', { cluster: 'nowhere', status: 'True' })).toBe(400);

    const token = await syncedToken('west-2');
    expect(await simControl('POST', 'hub/proxy-faults', { cluster: 'west-2' })).toBe(201);
    const failed = await kubectl(viaProxy('west-2', token), ['get', 'clusterversion', 'version']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/cluster-proxy: west-2: injected fault/);
    expect(await simControl('DELETE', 'hub/proxy-faults?cluster=west-2')).toBe(200);
    expect((await kubectl(viaProxy('west-2', token), ['get', 'clusterversion', 'version'])).code).toBe(0);
  });

  it('deleting a ManagedCluster removes its ClusterProfile and Secrets; creating it again re-registers it', async () => {
    const old = await syncedToken('west-2');
    const deleted = await kubectl(hubAs('admin'), ['delete', 'managedcluster', 'west-2']);
    expect(deleted.stderr).toBe('');
    const gone = async (args: string[]) => {
      const run = await kubectl(hubAs('reader'), ['get', ...args]);
      return run.code !== 0 && /NotFound|not found/.test(run.stderr);
    };
    await waitFor(() => gone(['clusterprofile', '-n', NS, 'west-2']), 'the ClusterProfile to go');
    expect(await gone(['secret', '-n', NS, 'west-2-update-health'])).toBe(true);
    expect(await gone(['secret', '-n', 'west-2', 'update-health'])).toBe(true);
    const unreachable = await kubectl(viaProxy('west-2', old), ['get', 'clusterversion', 'version']);
    expect(unreachable.stderr).toMatch(/cluster-proxy: west-2: the cluster is not connected/);

    const manifest = JSON.stringify({
      apiVersion: 'cluster.open-cluster-management.io/v1',
      kind: 'ManagedCluster',
      metadata: { name: 'west-2' },
      spec: { hubAcceptsClient: true },
    });
    expect((await kubectl(hubAs('admin'), ['create', '--validate=false', '-f', '-'], manifest)).stderr).toBe('');
    await waitFor(async () => !(await gone(['secret', '-n', NS, 'west-2-update-health'])), 'the new Secret');
    const fresh = await syncedToken('west-2');
    expect(fresh).not.toBe(old);
    const run = await kubectl(viaProxy('west-2', fresh), ['get', 'clusterversion', 'version', '-o', 'name']);
    expect(run.stdout.trim()).toBe('clusterversion.config.openshift.io/version');
    expect((await kubectl(viaProxy('west-2', old), ['get', 'clusterversion', 'version'])).code).not.toBe(0);
  });
});
