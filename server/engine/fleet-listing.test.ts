/**
 * "Not listed yet" is not "empty": while a hub's first list of its ClusterProfiles is held (the embedded hub's API
 * server answers it late), `GET /api/clusters` says the hub is listing, with 0 discovered and no error, for the
 * local operator and a logged-in viewer alike; once the list arrives the listing state goes and the clusters come.
 * A kubeconfig source is listed from its first, synchronous read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterListSchema } from '@/lib/api/dto';
import { startFleet, type Fleet as SimFleet } from '@/server/simulator/fleet';
import { HUB_CONTEXT, fleetMembers, startHub, type EmbeddedHub } from '@/server/simulator/hub/serve-hub';
import { hubSource } from '@/server/fleet-sources/hub-source';
import { kubeconfigSource } from '@/server/fleet-sources/kubeconfig-source';
import { clusterListFor } from '@/server/auth/visibility';
import type { Viewer } from '@/server/auth/identity';
import { until } from '@/server/testing/reflector-harness';
import { Fleet } from './fleet';

const WATCH = { bookmarkIntervalMs: 500, backoff: { initialMs: 100, maxMs: 2_000, resetAfterMs: 5_000 } };
const LOCAL: Viewer = { kind: 'local' };
const USER: Viewer = { kind: 'user', user: { name: 'someone', groups: ['system:authenticated'] }, via: 'bearer' };

let sim: SimFleet | undefined;
let hub: EmbeddedHub | undefined;
let fleet: Fleet | undefined;
let dir = '';

afterEach(async () => {
  fleet?.stop();
  fleet = undefined;
  await hub?.close();
  hub = undefined;
  await sim?.close();
  sim = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('a fleet source before its first list', () => {
  it('says the hub is listing, not that the fleet is empty, until its first list arrives', async () => {
    sim = await startFleet({ scenarios: ['steady', 'update-in-progress'], speed: 10 });
    hub = await startHub(fleetMembers(sim), { realTime: true });
    // The hub answers the first request for ClusterProfiles 1.5 s late.
    hub.cluster.faults.add({ resource: 'clusterprofiles', verb: 'any', kind: 'slow', delayMs: 1_500, count: 1 });
    dir = mkdtempSync(join(tmpdir(), 'fleet-listing-'));
    const kubeconfig = join(dir, 'hub.yaml');
    writeFileSync(kubeconfig, hub.kubeconfig('reader'), { mode: 0o600 });
    fleet = new Fleet();
    fleet.follow([hubSource({ kubeconfig, context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH })]);
    await until('the first list to be held', () => hub!.cluster.faults.list().length === 0, 10_000);

    for (const viewer of [LOCAL, USER]) {
      const list = clusterListSchema.parse(await clusterListFor(viewer, fleet));
      expect(list.clusters).toEqual([]);
      expect(list.membership).toMatchObject({ discovered: 0, synced: 0 });
      expect(list.membership?.sources).toEqual([{ kind: 'hub', name: `${kubeconfig}:${HUB_CONTEXT}`, listing: true }]);
    }

    await until('the hub listed', () => !fleet!.membership().sources[0].listing, 20_000);
    const list = clusterListSchema.parse(await clusterListFor(LOCAL, fleet));
    expect(list.membership?.discovered).toBe(2);
    expect(list.membership?.sources).toEqual([{ kind: 'hub', name: `${kubeconfig}:${HUB_CONTEXT}` }]);
    expect(list.clusters.map((row) => row.id).sort()).toEqual(['steady', 'update-in-progress']);
  }, 60_000);

  it('says the hub listed by the time it reports the clusters of its first list', async () => {
    sim = await startFleet({ scenarios: ['steady', 'update-in-progress'], speed: 10 });
    hub = await startHub(fleetMembers(sim), { realTime: true });
    dir = mkdtempSync(join(tmpdir(), 'fleet-listing-'));
    const kubeconfig = join(dir, 'hub.yaml');
    writeFileSync(kubeconfig, hub.kubeconfig('reader'), { mode: 0o600 });
    const source = hubSource({ kubeconfig, context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH });
    const reports: { members: number; listing: boolean }[] = [];
    source.start((members) => reports.push({ members: members.length, listing: !!source.status().listing }));
    try {
      await until('the clusters reported', () => reports.some((report) => report.members > 0), 20_000);
    } finally {
      source.stop();
    }
    expect(reports.find((report) => report.members > 0)).toEqual({ members: 2, listing: false });
  }, 60_000);

  it('keeps saying listing, with the error, while the hub cannot be reached', async () => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-listing-'));
    const kubeconfig = join(dir, 'hub.yaml');
    // A hub nobody listens on (port 1 of the loopback refuses at once).
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: hub, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
        'users: [{name: reader, user: {token: t}}]',
        `contexts: [{name: ${HUB_CONTEXT}, context: {cluster: hub, user: reader}}]`,
        `current-context: ${HUB_CONTEXT}`,
      ].join('\n'),
      { mode: 0o600 },
    );
    fleet = new Fleet();
    fleet.follow([hubSource({ kubeconfig, context: HUB_CONTEXT, namespace: 'fleet', watch: WATCH, retryMs: 60_000 })]);
    await until('the error shows', () => fleet!.membership().sources[0].error, 10_000);
    expect(fleet.membership().sources[0]).toMatchObject({
      listing: true,
      error: { message: expect.stringMatching(/unreachable/) },
    });
    expect(fleet.membership().discovered).toBe(0);
  });

  it('a kubeconfig source is listed from its first read', () => {
    dir = mkdtempSync(join(tmpdir(), 'fleet-listing-'));
    const path = join(dir, 'kubeconfig.yaml');
    writeFileSync(path, 'apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\n', { mode: 0o600 });
    fleet = new Fleet();
    fleet.follow([kubeconfigSource(path)]);
    expect(fleet.membership().sources).toEqual([{ kind: 'kubeconfig', name: path }]);
  });
});
