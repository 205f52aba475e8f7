/**
 * The fleet from an ACM / OCM hub, end to end on the embedded hub (server/simulator/hub): ClusterProfiles found in
 * the bound namespace, each cluster reached through cluster-proxy with its managed-serviceaccount token Secret, no
 * per-cluster kubeconfig. Membership is live, tokens rotate without a gap, and each failure stays on its own row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeObject } from '@/lib/k8s/types';
import { startFleet, type Fleet as SimFleet } from '@/server/simulator/fleet';
import { HUB_CONTEXT, fleetMembers, startHub, type EmbeddedHub } from '@/server/simulator/hub/serve-hub';
import { hubSource } from '@/server/fleet-sources/hub-source';
import { kubeconfigSource } from '@/server/fleet-sources/kubeconfig-source';
import { until } from '@/server/testing/reflector-harness';
import { AccessReviewer } from '@/server/auth/access-reviewer';
import { UPSTREAM_OLMV1_NAMESPACE } from '@/lib/health/shared/olmv1-presence';
import { summaryOf } from '@/lib/cluster/cluster-summary';
import { Fleet } from './fleet';

const SCENARIOS = ['steady', 'update-in-progress', 'cross-minor-rollback'] as const;
const WATCH = { bookmarkIntervalMs: 500, backoff: { initialMs: 100, maxMs: 2_000, resetAfterMs: 5_000 } };

describe('a fleet discovered from an ACM hub', () => {
  let sim: SimFleet;
  let hub: EmbeddedHub;
  let fleet: Fleet;
  let dir = '';
  const statusesSeen = new Map<string, Set<string>>();
  let tracing: NodeJS.Timeout | undefined;
  const ids = () =>
    fleet
      .members()
      .map((member) => member.id)
      .sort();
  const synced = (id: string) => (fleet.get(id)?.summary().sources.synced ?? 0) > 0;

  beforeAll(async () => {
    sim = await startFleet({ scenarios: [...SCENARIOS], speed: 10, bookmarkIntervalMs: 500 });
    // Tokens rotate every 4 s of real time; a rotated-out token keeps working 1 s.
    hub = await startHub(fleetMembers(sim), {
      realTime: true,
      tokenTtlSeconds: 4,
      tokenGraceSeconds: 1,
      bookmarkIntervalMs: 500,
    });
    dir = mkdtempSync(join(tmpdir(), 'hub-fleet-'));
    const kubeconfig = join(dir, 'hub.yaml');
    writeFileSync(kubeconfig, hub.kubeconfig('reader'), { mode: 0o600 });
    fleet = new Fleet();
    fleet.follow([hubSource({ kubeconfig, context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH })]);
  }, 60_000);

  afterAll(async () => {
    clearInterval(tracing);
    fleet?.stop();
    await hub?.close();
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists every managed cluster, discovered by the hub, synced through cluster-proxy', async () => {
    await until('every cluster listed', () => ids().length === SCENARIOS.length, 20_000);
    expect(ids()).toEqual([...SCENARIOS].sort());
    for (const row of fleet.summaries()) expect(row.discoveredBy).toEqual({ kind: 'hub', name: HUB_CONTEXT });
    await until('every cluster synced', () => SCENARIOS.every(synced), 30_000);
    expect(fleet.membership()).toMatchObject({ discovered: 3, connected: 3, waiting: [] });
    // The seed stories' failure modes are found through the hub as through a kubeconfig.
    await until(
      'the rollback story finding',
      () => (fleet.get('cross-minor-rollback')?.summary().findingCounts.critical ?? 0) > 0,
      30_000,
    );
  }, 90_000);

  it("with the shipped RBAC, no OpenShift member shows a forbidden source: upstream OLMv1's namespace does not apply", async () => {
    // The hub grants each managed service account exactly deploy/openshift's RBAC, which cannot bind olmv1-system.
    const answered = (id: string) => {
      const health = fleet.get(id)?.health();
      const sources = health?.sources ?? [];
      const upstream = sources.filter((s) => s.namespace === UPSTREAM_OLMV1_NAMESPACE && s.status !== 'idle');
      return upstream.length > 0 && sources.every((s) => s.status !== 'pending') ? health : undefined;
    };
    for (const id of SCENARIOS) {
      const health = (await until(`${id}: every source answered`, () => answered(id), 30_000))!;
      const label = (s: { resource: string; namespace?: string; status: string }) =>
        `${s.resource} in ${s.namespace ?? '*'}: ${s.status}`;
      expect(health.sources.filter((s) => s.status === 'forbidden').map(label), id).toEqual([]);
      expect(
        health.sources.filter((s) => s.namespace === UPSTREAM_OLMV1_NAMESPACE && s.status !== 'idle').map(label),
        id,
      ).toEqual(expect.arrayContaining([`deployments in ${UPSTREAM_OLMV1_NAMESPACE}: not-applicable`]));
      expect(summaryOf(health).sources.behind.map(label), id).toEqual([]);
    }
  }, 60_000);

  it('tokens rotating every 4 s: no source turns unauthorized or stale, and no watch relists', async () => {
    const relistsBefore = fleet.stats().relists;
    tracing = setInterval(() => {
      for (const member of fleet.members()) {
        const seen = statusesSeen.get(member.id) ?? new Set<string>();
        const { sources } = member.summary();
        if (sources.synced > 0) seen.add('synced');
        for (const source of sources.behind) seen.add(source.status);
        statusesSeen.set(member.id, seen);
      }
    }, 50);
    const before = hub.controller.currentToken('steady');
    await until(
      'three rotations',
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        return hub.controller.currentToken('steady') !== before;
      },
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 9_000));
    clearInterval(tracing);
    for (const [id, seen] of statusesSeen) {
      expect(
        [...seen].filter((status) => status === 'unauthorized' || status === 'stale'),
        id,
      ).toEqual([]);
    }
    expect(fleet.stats().relists).toBe(relistsBefore);
  }, 60_000);

  it('per-user access reviews for a hub cluster go to that cluster through cluster-proxy', async () => {
    const reviewer = new AccessReviewer((id, path, body) => fleet.review(id, path, body));
    const clusterVersions = { verb: 'get' as const, group: 'config.openshift.io', resource: 'clusterversions' };
    const admin = { name: 'admin', groups: ['cluster-admins', 'system:authenticated'] };
    const dev = { name: 'dev', groups: ['catalog-team', 'system:authenticated'] };
    const posted: unknown[] = [];
    const answer = (user: typeof admin) =>
      fleet.review<{ status?: { allowed?: boolean } }>('steady', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: user.name, groups: user.groups, resourceAttributes: clusterVersions },
      });
    posted.push(await answer(admin), await answer(dev));
    expect(posted).toMatchObject([{ status: { allowed: true } }, { status: { allowed: false } }]);
    expect(await reviewer.allowed('steady', admin, clusterVersions)).toBe(true);
    expect(await reviewer.allowed('steady', dev, clusterVersions)).toBe(false);
  }, 30_000);

  it('ManagedClusterConditionAvailable False: the row says the hub reports it unavailable since when', async () => {
    hub.controller.setAvailable('steady', 'False');
    await until('unavailable row', () => fleet.get('steady')?.summary().reachability, 15_000);
    expect(fleet.get('steady')!.summary().reachability).toMatchObject({ status: 'hub-unavailable' });
    expect(fleet.membership().waiting).toEqual([]);
    hub.controller.setAvailable('steady', 'True');
    await until('available again', () => !fleet.get('steady')?.summary().reachability, 15_000);
  }, 40_000);

  it('a ManagedCluster deleted leaves the fleet; created again (with a proxy answering 502) it returns with the reason', async () => {
    const admin = hub.cluster.client;
    const live = admin.get('managedclusters', 'update-in-progress') as KubeObject;
    admin.delete('managedclusters', 'update-in-progress');
    await until('row gone', () => !ids().includes('update-in-progress'), 15_000);
    expect(ids()).toEqual(['cross-minor-rollback', 'steady']);

    hub.faults.set({ cluster: 'update-in-progress', status: 502 });
    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _created, ...metadata } = live.metadata;
    void _rv;
    void _uid;
    void _created;
    admin.create('managedclusters', { apiVersion: live.apiVersion, kind: live.kind, metadata, spec: live.spec });
    await until('row back', () => ids().includes('update-in-progress'), 15_000);
    await until(
      'the 502 on its row',
      () =>
        fleet
          .get('update-in-progress')
          ?.summary()
          .sources.behind.some((source) => source.error?.code === 502),
      20_000,
    );
    // The others are unaffected, and the waiting one is counted with its reason.
    expect(synced('steady') && synced('cross-minor-rollback')).toBe(true);
    const waiting = fleet.membership().waiting.find((entry) => entry.id === 'update-in-progress');
    expect(waiting?.reason).toMatch(/^pending: 502 cluster-proxy: update-in-progress/);
    hub.faults.clear('update-in-progress');
    await until('recovered', () => synced('update-in-progress'), 30_000);
  }, 90_000);

  it('a missing token Secret shows on the row with the reason; restored, the row recovers', async () => {
    const admin = hub.cluster.client;
    const name = 'cross-minor-rollback-update-health';
    const secret = admin.get('secrets', name, hub.namespace) as KubeObject;
    // A new member whose Secret is missing: the row is there with the reason from its first request.
    fleet.stop();
    admin.delete('secrets', name, hub.namespace);
    const kubeconfig = join(dir, 'hub.yaml');
    fleet = new Fleet();
    fleet.follow([hubSource({ kubeconfig, context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH })]);
    await until('row listed', () => ids().includes('cross-minor-rollback'), 15_000);
    await until(
      'reason on the row',
      () =>
        fleet
          .get('cross-minor-rollback')
          ?.summary()
          .sources.behind.some((source) =>
            /token Secret .*cross-minor-rollback-update-health not found/.test(source.error?.message ?? ''),
          ),
      15_000,
    );
    const { resourceVersion: _rv, uid: _uid, ...metadata } = secret.metadata;
    void _rv;
    void _uid;
    hub.controller.rotate('cross-minor-rollback');
    if (!admin.get('secrets', name, hub.namespace)) admin.create('secrets', { ...secret, metadata });
    await until('row recovers', () => synced('cross-minor-rollback'), 45_000);
  }, 90_000);

  it('a cluster reached by its own kubeconfig context and by the hub is one row, the kubeconfig one', async () => {
    fleet.stop();
    const own = join(dir, 'own.yaml');
    writeFileSync(
      own,
      hub.kubeconfig(
        'reader',
        sim.kubeconfigEntries('reader').filter((entry) => entry.name === 'steady'),
      ),
    );
    fleet = new Fleet();
    fleet.follow([
      kubeconfigSource(own, { contexts: ['steady'] }),
      hubSource({ kubeconfig: join(dir, 'hub.yaml'), context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH }),
    ]);
    await until('every cluster listed once', () => ids().join() === [...SCENARIOS].sort().join(), 20_000);
    expect(fleet.get('steady')!.summary().discoveredBy).toEqual({ kind: 'kubeconfig', name: own });
    await until('nothing waits', () => fleet.membership().waiting.length === 0, 30_000);
    expect(fleet.membership()).toMatchObject({ discovered: 3 });
  }, 60_000);

  it('credentials from an exec plugin (as cp-creds): it is told the cluster and returns the synced token', async () => {
    fleet.stop();
    const plugin = join(dir, 'cp-creds.js');
    writeFileSync(plugin, CP_CREDS);
    const log = join(dir, 'exec.log');
    fleet = new Fleet();
    fleet.follow([
      hubSource({
        kubeconfig: join(dir, 'hub.yaml'),
        context: HUB_CONTEXT,
        namespace: hub.namespace,
        watch: WATCH,
        exec: {
          command: process.execPath,
          args: [plugin, '--managed-serviceaccount=update-health'],
          env: [
            { name: 'HUB_URL', value: hub.server.url },
            { name: 'HUB_CA', value: hub.server.caData },
            { name: 'HUB_TOKEN', value: hub.server.tokens.admin },
            { name: 'HUB_NAMESPACE', value: hub.namespace },
            { name: 'EXEC_LOG', value: log },
          ],
        },
      }),
    ]);
    await until('every cluster synced', () => SCENARIOS.every(synced), 30_000);
    const infos = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { spec: { interactive: boolean; cluster: { server: string; config: unknown } } },
      );
    // Run once per cluster, and again only for a token the cluster rejected (rotated every 4 s here).
    const names = infos.map((info) => (info.spec.cluster.config as { clusterName: string }).clusterName);
    expect([...new Set(names)].sort()).toEqual([...SCENARIOS].sort());
    expect(infos.every((info) => !info.spec.interactive && info.spec.cluster.server.startsWith(hub.proxy.url))).toBe(
      true,
    );
  }, 60_000);
});

/**
 * A stand-in for cp-creds (managed-serviceaccount's ClusterProfile credential plugin): reads `clusterName` from the
 * exec extension in KUBERNETES_EXEC_INFO and answers the synced `<cluster>-<msa>` Secret's token as an ExecCredential.
 */
const CP_CREDS = `
const https = require('node:https');
const fs = require('node:fs');
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
fs.appendFileSync(process.env.EXEC_LOG, JSON.stringify(info) + '\\n');
const msa = process.argv.find((arg) => arg.startsWith('--managed-serviceaccount=')).split('=')[1];
const name = info.spec.cluster.config.clusterName + '-' + msa;
const url = process.env.HUB_URL + '/api/v1/namespaces/' + process.env.HUB_NAMESPACE + '/secrets/' + name;
const ca = Buffer.from(process.env.HUB_CA, 'base64');
https.get(url, { ca, headers: { authorization: 'Bearer ' + process.env.HUB_TOKEN } }, (res) => {
  let body = '';
  res.on('data', (chunk) => (body += chunk));
  res.on('end', () => {
    if (res.statusCode !== 200) { process.stderr.write('secret ' + name + ': ' + res.statusCode); process.exit(1); }
    const token = Buffer.from(JSON.parse(body).data.token, 'base64').toString();
    process.stdout.write(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status: { token } }));
  });
});
`;
