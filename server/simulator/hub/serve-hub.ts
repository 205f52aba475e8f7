import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVICE_NAMESPACE } from '../access/access-seed';
import { serveCluster, type ServedCluster } from '../api-server';
import type { Identity } from '../auth';
import { createSimulatedCluster, type SimulatedCluster } from '../core';
import type { Fleet } from '../fleet';
import { badRequest } from '../errors';
import { readBody, sendJson } from '../http-util';
import { startClockDriver } from '../clock';
import { buildKubeconfig, type KubeconfigEntry } from '../kubeconfig';
import { ClusterProxyServer, ProxyFaults, serveClusterProxy } from './cluster-proxy';
import { HubController, UnknownManagedClusterError, type HubMember } from './hub-controller';

/** The kubeconfig context (and cluster) name of the embedded hub. */
export const HUB_CONTEXT = 'hub';
/** The ManagedClusterSet the embedded clusters join, bound into the dashboard's namespace. */
export const HUB_CLUSTER_SET = 'update-health';
/** Default seconds between managed-serviceaccount token rotations in the simulator. */
export const DEFAULT_TOKEN_TTL_SECONDS = 300;

/** Options of the embedded hub. */
export interface HubOptions {
  /** Seconds between token rotations (default 300). */
  tokenTtlSeconds?: number;
  /** Seconds a rotated-out token keeps working (default: a tenth of the TTL, at least 1 s, at most 30 s). */
  tokenGraceSeconds?: number;
  /** The namespace bound to the cluster set (default: the dashboard's, openshift-update-health). */
  namespace?: string;
  /**
   * Run the hub clock in real time from now (token rotation every TTL of wall time). Default false: the clock
   * stands at the simulator's start time until advanced (tests).
   */
  realTime?: boolean;
  port?: number;
  proxyPort?: number;
  bookmarkIntervalMs?: number;
}

/** A running embedded hub: its API server, the cluster-proxy user-server and the controllers behind them. */
export interface EmbeddedHub {
  cluster: SimulatedCluster;
  server: ServedCluster;
  proxy: ClusterProxyServer;
  controller: HubController;
  faults: ProxyFaults;
  namespace: string;
  /** A kubeconfig whose current context is `hub`; `members` adds per-cluster contexts after it. */
  kubeconfig(identity: Identity, members?: KubeconfigEntry[]): string;
  close(): Promise<void>;
}

function defaultGrace(ttlSeconds: number): number {
  return Math.min(30, Math.max(1, Math.round(ttlSeconds / 10)));
}

type AvailableStatus = 'True' | 'False' | 'Unknown';

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  try {
    const body: unknown = JSON.parse(await readBody(req));
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw badRequest('body must be a JSON object');
}

function clusterField(body: Record<string, unknown>): string {
  if (typeof body.cluster !== 'string' || !body.cluster)
    throw badRequest('"cluster" (a ManagedCluster name) is required');
  return body.cluster;
}

/**
 * The hub's `/__sim/hub/*` controls (cluster-admin only, like every `/__sim` path): `POST hub/available`
 * `{cluster, status: True|False|Unknown}`, `POST hub/rotate` `{cluster}`, `POST hub/proxy-faults`
 * `{cluster, status?: 502, count?}` or `{cluster, blackhole: true}`, `DELETE hub/proxy-faults[?cluster=]`. Returns
 * false for other actions.
 */
async function hubControl(
  hub: { controller: HubController; faults: ProxyFaults },
  action: string,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): Promise<boolean> {
  const route = `${req.method ?? 'GET'} ${action}`;
  try {
    switch (route) {
      case 'POST hub/available': {
        const body = await jsonBody(req);
        const status = body.status as AvailableStatus;
        if (!['True', 'False', 'Unknown'].includes(status)) throw badRequest('"status" must be True, False or Unknown');
        const updated = hub.controller.setAvailable(clusterField(body), status);
        sendJson(res, 200, { cluster: updated.metadata.name, available: status });
        return true;
      }
      case 'POST hub/rotate': {
        const cluster = clusterField(await jsonBody(req));
        hub.controller.rotate(cluster);
        sendJson(res, 200, { cluster, rotated: true });
        return true;
      }
      case 'POST hub/proxy-faults': {
        const body = await jsonBody(req);
        const status = body.status === undefined ? 502 : body.status;
        if (!Number.isInteger(status) || (status as number) < 500 || (status as number) > 599)
          throw badRequest('"status" must be a 5xx code (default 502)');
        if (body.blackhole === true) {
          hub.faults.set({ cluster: clusterField(body), blackhole: true });
          sendJson(res, 201, { cluster: body.cluster, blackhole: true });
          return true;
        }
        const count = body.count;
        if (count !== undefined && !(Number.isInteger(count) && (count as number) > 0))
          throw badRequest('"count" must be a positive integer');
        hub.faults.set({ cluster: clusterField(body), status: status as number, count: count as number | undefined });
        sendJson(res, 201, { cluster: body.cluster, status });
        return true;
      }
      case 'DELETE hub/proxy-faults':
        hub.faults.clear(query.get('cluster') ?? undefined);
        sendJson(res, 200, { cleared: true });
        return true;
      default:
        return false;
    }
  } catch (error) {
    if (error instanceof UnknownManagedClusterError) throw badRequest(error.message);
    throw error;
  }
}

/**
 * Starts an embedded ACM / OCM hub in front of `members`: one more simulated API server serving the real hub CRDs
 * (ManagedCluster, ManagedClusterSet(Binding), ClusterProfile, ManagedServiceAccount, ManagedClusterAddOn, ...)
 * with every member registered, and the cluster-proxy user-server routing `/<cluster>/...` to each member.
 */
export async function startHub(members: HubMember[], options: HubOptions = {}): Promise<EmbeddedHub> {
  const ttlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  const graceSeconds = options.tokenGraceSeconds ?? defaultGrace(ttlSeconds);
  const namespace = options.namespace ?? SERVICE_NAMESPACE;
  const cluster = createSimulatedCluster({ startTime: options.realTime ? Date.now() : undefined });
  const faults = new ProxyFaults();
  const driver = options.realTime ? startClockDriver(cluster.clock, { speed: 1, tickMs: 250 }) : undefined;
  // The servers come first (the controller writes their URLs into the ClusterProfiles); until it runs, the
  // proxy routes nothing and the hub controls answer 404.
  const hub: { controller?: HubController } = {};
  const proxy = await serveClusterProxy((name) => hub.controller?.proxyTarget(name), faults, {
    port: options.proxyPort,
  });
  let server: ServedCluster;
  try {
    server = await serveCluster(cluster, {
      driver,
      port: options.port,
      bookmarkIntervalMs: options.bookmarkIntervalMs,
      control: async (action, req, res, query) =>
        hub.controller ? hubControl({ controller: hub.controller, faults }, action, req, res, query) : false,
    });
  } catch (error) {
    driver?.();
    await proxy.close();
    throw error;
  }
  const controller = new HubController(cluster, members, {
    profileNamespace: namespace,
    clusterSet: HUB_CLUSTER_SET,
    proxy: { url: proxy.url, caData: proxy.caData },
    tokenTtlMs: ttlSeconds * 1000,
    tokenGraceMs: graceSeconds * 1000,
  });
  controller.start();
  hub.controller = controller;
  return {
    cluster,
    server,
    proxy,
    controller,
    faults,
    namespace,
    kubeconfig: (identity, extra = []) =>
      buildKubeconfig(
        [{ name: HUB_CONTEXT, server: server.url, caData: server.caData, token: server.tokens[identity] }, ...extra],
        HUB_CONTEXT,
      ),
    close: async () => {
      driver?.();
      controller.stop();
      await Promise.all([server.close(), proxy.close()]);
    },
  };
}

/** The clusters of a running fleet as hub members (ManagedCluster names = kubeconfig context names). */
export function fleetMembers(fleet: Fleet): HubMember[] {
  return fleet.clusters.map((running) => ({
    name: running.id,
    url: running.url,
    caData: running.server.caData,
    cluster: running.cluster,
    // Members that listen are reached over HTTPS as before; the others only through the proxy's tunnel.
    ...(fleet.listens ? {} : { dispatch: running.server.dispatch }),
  }));
}
