import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request } from 'node:https';
import { isEndToEndHeader } from '@/lib/http/hop-by-hop';
import type { Status } from '@/lib/k8s/types';
import { failure } from '../errors';
import { sendStatus } from '../http-util';
import { listenHttps, type ApiRequestHandler, type ListeningServer, type ListenOptions } from '../https-server';
import { servingCertificate } from '../tls';

/** Where cluster-proxy reaches one managed cluster's API server. */
export interface ProxyTarget {
  url: string;
  /** base64 PEM the target's serving certificate chains to. */
  caData: string;
  /**
   * The member's in-process request handler, when it has no listener of its own: the tunnel hands each request
   * straight to it (one agent tunnel per cluster, as the real cluster-proxy has), with no connection per request.
   */
  dispatch?: ApiRequestHandler;
}

/**
 * One injected cluster-proxy failure for a cluster: the tunnel answers `status` instead of the cluster, or, with
 * `blackhole`, is dead (requests held open with nothing sent, open streams stop delivering).
 */
export type ProxyFault =
  | {
      cluster: string;
      status: number;
      /** How many requests it answers (default: until cleared). */
      count?: number;
    }
  | { cluster: string; blackhole: true };

/** Per-cluster proxy faults, consumed request by request. */
export class ProxyFaults {
  private readonly faults = new Map<string, { status: number; remaining: number }>();
  private readonly holes = new Set<string>();
  private readonly listeners = new Set<(cluster: string | undefined) => void>();

  /** Makes the proxy answer `status` for `cluster` (count times, or until cleared), or black-holes it. */
  set(fault: ProxyFault): void {
    if ('blackhole' in fault) {
      this.holes.add(fault.cluster);
      for (const listener of this.listeners) listener(fault.cluster);
    } else this.faults.set(fault.cluster, { status: fault.status, remaining: fault.count ?? Infinity });
  }

  /** Clears one cluster's fault, or all. */
  clear(cluster?: string): void {
    if (cluster === undefined) {
      this.faults.clear();
      this.holes.clear();
    } else {
      this.faults.delete(cluster);
      this.holes.delete(cluster);
    }
    for (const listener of this.listeners) listener(undefined);
  }

  /** Whether `cluster`'s tunnel is black-holed. */
  blackholed(cluster: string): boolean {
    return this.holes.has(cluster);
  }

  /** Calls `listener` with the cluster when one is black-holed, and with undefined when faults are cleared. */
  onChange(listener: (cluster: string | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The status to answer with for a request to `cluster`, if a fault is active. */
  take(cluster: string): number | undefined {
    const fault = this.faults.get(cluster);
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults.delete(cluster);
    return fault.status;
  }
}

/** A running cluster-proxy user-server. */
export interface ClusterProxyServer extends ListeningServer {
  /** base64 PEM of its serving certificate (the ClusterProfile access provider's `certificate-authority-data`). */
  caData: string;
  /** Restarts as the proxy's pod would: every connection (so every tunnelled request) drops, same port, same CA. */
  restart(): Promise<void>;
}

/** Makes a tunnelled response deliver nothing more, as a dead tunnel does (the client's connection stays open). */
function silence(res: ServerResponse): void {
  res.write = (() => true) as typeof res.write;
  res.end = (() => res) as typeof res.end;
  res.writeHead = (() => res) as typeof res.writeHead;
  res.flushHeaders = () => undefined;
}

function forwardHeaders(headers: IncomingMessage['headers']): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    // `host` names the proxy; the tunnel's request names the cluster's API server.
    if (isEndToEndHeader(name) && name !== 'host' && value !== undefined) out[name] = value;
  return out;
}

const REASONS: Record<number, string> = { 502: 'BadGateway', 503: 'ServiceUnavailable', 504: 'Timeout' };

/** The proxy's own failure for `cluster` (Status reason by code, as the API machinery names them). */
function badGateway(cluster: string, code = 502, why = 'the cluster is not connected to the hub'): Status {
  return failure(code, REASONS[code] ?? 'InternalError', `cluster-proxy: ${cluster}: ${why}`, {});
}

/**
 * Serves cluster-proxy's user-server: `/<cluster>/<path>` goes to that managed cluster's API server as `<path>`,
 * with the caller's credentials forwarded unchanged (a managed-serviceaccount token is a token of that cluster, so
 * the cluster authenticates it and its RBAC decides). Responses, watches included, stream back as they come.
 */
export async function serveClusterProxy(
  target: (cluster: string) => ProxyTarget | undefined,
  faults: ProxyFaults,
  options: ListenOptions = {},
): Promise<ClusterProxyServer> {
  const certificate = servingCertificate();
  // Tunnelled requests in flight per cluster: what a black-holed tunnel stops delivering.
  const open = new Map<string, Set<() => void>>();
  const hold = (cluster: string, res: ServerResponse, stop: () => void) => {
    let held = open.get(cluster);
    if (!held) open.set(cluster, (held = new Set()));
    held.add(stop);
    res.on('close', () => {
      held.delete(stop);
      if (held.size === 0 && open.get(cluster) === held) open.delete(cluster);
    });
  };
  const unsubscribe = faults.onChange((cluster) => {
    if (cluster === undefined) return;
    for (const stop of open.get(cluster) ?? []) stop();
  });
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    const match = /^\/([^/?]+)(\/[^?]*)?(\?.*)?$/.exec(raw);
    if (!match)
      return sendStatus(res, failure(404, 'NotFound', 'cluster-proxy: the path must start with /<cluster>', {}));
    const cluster = decodeURIComponent(match[1]);
    if (faults.blackholed(cluster)) return; // held open, never answered
    const injected = faults.take(cluster);
    if (injected !== undefined) return sendStatus(res, badGateway(cluster, injected, 'injected fault'));
    const destination = target(cluster);
    if (!destination) return sendStatus(res, badGateway(cluster));
    const path = `${match[2] ?? '/'}${match[3] ?? ''}`;
    if (destination.dispatch) {
      hold(cluster, res, () => silence(res));
      req.url = path;
      return destination.dispatch(req, res);
    }
    const upstream = request(
      `${destination.url}${path}`,
      {
        method: req.method,
        headers: forwardHeaders(req.headers),
        ca: Buffer.from(destination.caData, 'base64').toString(),
      },
      (answer) => {
        const headers = forwardHeaders(answer.headers);
        res.writeHead(answer.statusCode ?? 502, headers);
        res.flushHeaders();
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        hold(cluster, res, () => {
          answer.unpipe(res);
          answer.pause();
        });
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) res.destroy();
      else sendStatus(res, badGateway(cluster, 502, error.message));
    });
    // A client that goes away (a watch closed) closes the tunnelled request too.
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };
  let listening = await listenHttps(certificate, handler, options);
  const port = Number(new URL(listening.url).port);
  return {
    url: listening.url,
    address: listening.address,
    caData: certificate.caData,
    get server() {
      return listening.server;
    },
    connections: () => listening.connections(),
    dropConnections: (how) => listening.dropConnections(how),
    restart: async () => {
      await listening.close();
      listening = await listenHttps(certificate, handler, { ...options, port });
    },
    close: async () => {
      unsubscribe();
      await listening.close();
    },
  };
}
