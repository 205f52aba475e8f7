import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request } from 'node:https';
import { isEndToEndHeader } from '@/lib/http/hop-by-hop';
import type { Status } from '@/lib/k8s/types';
import { failure } from '../errors';
import { sendStatus } from '../http-util';
import { listenHttps, type ListeningServer, type ListenOptions } from '../https-server';
import { servingCertificate } from '../tls';

/** Where cluster-proxy reaches one managed cluster's API server. */
export interface ProxyTarget {
  url: string;
  /** base64 PEM the target's serving certificate chains to. */
  caData: string;
}

/** One injected cluster-proxy failure for a cluster (the tunnel answers `status` instead of the cluster). */
export interface ProxyFault {
  cluster: string;
  status: number;
  /** How many requests it answers (default: until cleared). */
  count?: number;
}

/** Per-cluster proxy faults, consumed request by request. */
export class ProxyFaults {
  private readonly faults = new Map<string, { status: number; remaining: number }>();

  /** Makes the proxy answer `status` for `cluster` (count times, or until cleared). */
  set(fault: ProxyFault): void {
    this.faults.set(fault.cluster, { status: fault.status, remaining: fault.count ?? Infinity });
  }

  /** Clears one cluster's fault, or all. */
  clear(cluster?: string): void {
    if (cluster === undefined) this.faults.clear();
    else this.faults.delete(cluster);
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
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    const match = /^\/([^/?]+)(\/[^?]*)?(\?.*)?$/.exec(raw);
    if (!match)
      return sendStatus(res, failure(404, 'NotFound', 'cluster-proxy: the path must start with /<cluster>', {}));
    const cluster = decodeURIComponent(match[1]);
    const injected = faults.take(cluster);
    if (injected !== undefined) return sendStatus(res, badGateway(cluster, injected, 'injected fault'));
    const destination = target(cluster);
    if (!destination) return sendStatus(res, badGateway(cluster));
    const upstream = request(
      `${destination.url}${match[2] ?? '/'}${match[3] ?? ''}`,
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
  const listening = await listenHttps(certificate, handler, options);
  return { ...listening, caData: certificate.caData };
}
