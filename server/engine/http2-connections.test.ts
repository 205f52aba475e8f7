/**
 * One connection per API server: the engines watch every resource of their clusters through the real watch layer,
 * and each embedded API server counts the TCP connections it accepted. Over HTTP/2 all lists, watches and probes of
 * a cluster are streams on one connection; an API server that does not offer h2 gets HTTP/1.1 (a connection per
 * open watch) and the fleet syncs all the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFleet, type Fleet as SimFleet } from '@/server/simulator/fleet';
import { createKubeConnection } from '@/server/kube/kube-connection';
import { until } from '@/server/testing/reflector-harness';
import { HUB_CONTEXT, fleetMembers, startHub, type EmbeddedHub } from '@/server/simulator/hub/serve-hub';
import { hubSource } from '@/server/fleet-sources/hub-source';
import { ClusterEngine } from './cluster-engine';
import { Fleet } from './fleet';

/** Statuses of a settled source: synced, idle, or refused by design (RBAC of the reader identity, not applicable). */
const SETTLED = new Set(['synced', 'forbidden', 'idle', 'not-applicable']);

let fleet: SimFleet | undefined;
let engines: ClusterEngine[] = [];
let dir = '';
let hub: EmbeddedHub | undefined;
let hubFleet: Fleet | undefined;

afterEach(async () => {
  for (const engine of engines) engine.stop();
  engines = [];
  hubFleet?.stop();
  hubFleet = undefined;
  await hub?.close();
  hub = undefined;
  await fleet?.close();
  fleet = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

async function watchFleet(http2: boolean): Promise<{ sources: number }> {
  fleet = await startFleet({ scenarios: ['update-in-progress', 'hypershift-management'], speed: 1, http2 });
  dir = mkdtempSync(join(tmpdir(), 'http2-connections-'));
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  writeFileSync(kubeconfig, fleet.kubeconfig('reader'), { mode: 0o600 });
  engines = fleet.clusters.map(
    (running) =>
      new ClusterEngine({
        id: running.name,
        name: running.name,
        connection: createKubeConnection(kubeconfig, running.name),
      }),
  );
  for (const engine of engines) engine.start();
  await until(
    'every source of every cluster to settle',
    () =>
      engines.every((engine) => {
        const sources = engine.health().sources;
        return sources.length > 0 && sources.every((source) => SETTLED.has(source.status));
      }),
    60_000,
    100,
  );
  return { sources: Math.min(...engines.map((engine) => engine.health().sources.length)) };
}

describe('connections from the dashboard to each API server', () => {
  it('over HTTP/2 every list, watch and probe of a cluster shares ONE TCP connection', async () => {
    const { sources } = await watchFleet(true);
    expect(sources).toBeGreaterThan(5);
    for (const running of fleet!.clusters) {
      expect({ cluster: running.name, ...running.server.connections() }).toEqual({
        cluster: running.name,
        tcp: 1,
        h2Sessions: 1,
        open: 1,
      });
    }
  }, 90_000);

  it('falls back to HTTP/1.1 when the API server does not offer h2, and still syncs', async () => {
    await watchFleet(false);
    for (const [i, running] of fleet!.clusters.entries()) {
      const connections = running.server.connections();
      expect(connections.h2Sessions).toBe(0);
      // a connection per open watch, as before HTTP/2
      const watching = engines[i].health().sources.filter((source) => source.status === 'synced').length;
      expect(connections.open).toBeGreaterThanOrEqual(watching);
    }
  }, 90_000);

  it("through a hub's cluster-proxy every cluster's lists and watches share ONE connection to the proxy", async () => {
    fleet = await startFleet({ scenarios: ['steady', 'update-in-progress', 'cross-minor-rollback'], speed: 1 });
    hub = await startHub(fleetMembers(fleet));
    dir = mkdtempSync(join(tmpdir(), 'http2-connections-'));
    const kubeconfig = join(dir, 'hub.yaml');
    writeFileSync(kubeconfig, hub.kubeconfig('reader'), { mode: 0o600 });
    hubFleet = new Fleet();
    hubFleet.follow([hubSource({ kubeconfig, context: HUB_CONTEXT, namespace: hub.namespace })]);
    await until(
      'every cluster behind the hub to settle',
      () => {
        const members = hubFleet!.members();
        return (
          members.length === fleet!.clusters.length &&
          members.every((member) => {
            const sources = member.health().sources;
            return sources.length > 5 && sources.every((source) => SETTLED.has(source.status));
          })
        );
      },
      60_000,
      100,
    );
    const synced = hubFleet.members().map((member) => member.health().sources.filter((s) => s.status === 'synced'));
    expect(Math.min(...synced.map((sources) => sources.length))).toBeGreaterThan(5);
    expect(hub.proxy.connections()).toEqual({ tcp: 1, h2Sessions: 1, open: 1 });
  }, 90_000);
});
