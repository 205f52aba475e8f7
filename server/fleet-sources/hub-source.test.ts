import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleet } from '@/server/simulator/fleet';
import { HUB_CONTEXT, fleetMembers, startHub } from '@/server/simulator/hub/serve-hub';
import { buildKubeconfig } from '@/server/simulator/kubeconfig';
import { until } from '@/server/testing/reflector-harness';
import type { MemberSpec } from './fleet-source';
import { hubSource } from './hub-source';

const dir = mkdtempSync(join(tmpdir(), 'hub-source-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WATCH = { bookmarkIntervalMs: 200, backoff: { initialMs: 100, maxMs: 500, resetAfterMs: 5_000 } };

describe('the hub source when the hub cannot be reached', () => {
  it('a hub unreachable at start: no members, the reason, and since when it has been down', async () => {
    const path = join(dir, 'nowhere.yaml');
    // Port 1 on loopback refuses connections.
    writeFileSync(path, buildKubeconfig([{ name: 'hub', server: 'https://127.0.0.1:1', caData: '', token: 'x' }]));
    const source = hubSource({ kubeconfig: path, context: 'hub', namespace: 'ns', retryMs: 100 });
    const sets: (readonly MemberSpec[])[] = [];
    source.start((members) => sets.push(members));
    await until('the error', () => source.status().error, 5_000);
    expect(source.status()).toMatchObject({
      kind: 'hub',
      error: { message: expect.stringMatching(/^hub .*nowhere\.yaml:hub unreachable: .*ECONNREFUSED/) },
    });
    const since = source.status().error!.since;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(source.status().error?.since).toBe(since);
    expect(sets).toEqual([]);
    source.stop();
  });

  it('a hub that goes away keeps the clusters it listed and says so', async () => {
    const sim = await startFleet({ scenarios: ['steady'], speed: 1, bookmarkIntervalMs: 200 });
    const hub = await startHub(fleetMembers(sim), { bookmarkIntervalMs: 200 });
    const path = join(dir, 'hub.yaml');
    writeFileSync(path, hub.kubeconfig('reader'));
    const source = hubSource({ kubeconfig: path, context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH });
    let latest: readonly MemberSpec[] = [];
    source.start((members) => (latest = members));
    try {
      await until('steady listed', () => latest.some((member) => member.id === 'steady'), 10_000);
      expect(source.status().error).toBeUndefined();
      await hub.close();
      await until('the hub error', () => source.status().error, 10_000);
      expect(source.status().error?.message).toMatch(
        /^ClusterProfiles in openshift-update-health: (stale|unreachable): /,
      );
      expect(latest.map((member) => member.id)).toEqual(['steady']);
    } finally {
      source.stop();
      await sim.close();
    }
  }, 30_000);
});

describe('the hub source as its clusters change', () => {
  it('rebuilds only the member whose object changed, and a rotated token changes no member', async () => {
    const sim = await startFleet({ scenarios: ['steady', 'update-in-progress'], speed: 1, bookmarkIntervalMs: 200 });
    const hub = await startHub(fleetMembers(sim), { bookmarkIntervalMs: 200 });
    const path = join(dir, 'hub-changes.yaml');
    writeFileSync(path, hub.kubeconfig('reader'));
    const source = hubSource({ kubeconfig: path, context: HUB_CONTEXT, namespace: hub.namespace, watch: WATCH });
    const sets: (readonly MemberSpec[])[] = [];
    source.start((members) => sets.push(members));
    const latest = () => sets.at(-1) ?? [];
    const member = (id: string) => latest().find((entry) => entry.id === id);
    const reachable = (id: string) => {
      const found = member(id);
      return found && 'connection' in found && !found.reachability;
    };
    try {
      await until('both listed and reachable', () => reachable('steady') && reachable('update-in-progress'), 10_000);
      const before = { steady: member('steady'), updating: member('update-in-progress') };

      // A rotated token is read by the member when it sends a request: the set is not reported again.
      const reports = sets.length;
      const old = hub.controller.currentToken('steady');
      hub.controller.rotate('steady');
      const fresh = hub.controller.currentToken('steady');
      expect(fresh).not.toBe(old);
      const connection = (before.steady as Extract<MemberSpec, { connection: unknown }>).connection;
      if (connection.kind !== 'endpoint') throw new Error('a hub member connects to an endpoint');
      await until(
        'the new token served',
        async () => (await connection.credentials({ rejected: false })).token === fresh,
      );

      // One cluster's object changes: one report, in which only that member is new.
      hub.controller.setAvailable('steady', 'False');
      await until('steady unavailable', () => reachable('steady') === false, 10_000);
      expect(sets.length).toBe(reports + 1);
      expect(member('update-in-progress')).toBe(before.updating);
      expect(member('steady')).not.toBe(before.steady);
    } finally {
      source.stop();
      await hub.close();
      await sim.close();
    }
  }, 30_000);
});
