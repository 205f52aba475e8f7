import 'server-only';
import type { TLSSocket } from 'node:tls';

/**
 * The identity OpenShift's platform Prometheus presents when it scrapes with the `tls-client-certificate-auth` scrape
 * class: the client certificate `metrics-client-certs`, issued by the cluster's kube-apiserver client signer to the
 * `prometheus-k8s` service account (the name the cluster-version operator's own metrics server admits).
 */
export const PLATFORM_PROMETHEUS = 'system:serviceaccount:openshift-monitoring:prometheus-k8s';

/** Who a verified client certificate names, or why the request is refused (401: no trusted certificate; 403: not allowed). */
export type ClientCertificateAnswer =
  { ok: true; name: string } | { ok: false; status: 401 | 403; code: 'unauthorized' | 'forbidden'; message: string };

/**
 * The second door identity enters by (the first is edge-auth.ts): a TLS client certificate on the metrics listener.
 * The handshake asked for a certificate and checked it against the client CA without refusing the connection, so
 * the answer here is an HTTP status (a scraper sees 401 or 403 with the reason, not a TLS alert). A trusted
 * certificate names a user in its CN, as the API server reads it; only the names allowed get through.
 */
export function clientCertificateIdentity(socket: TLSSocket, allowed: readonly string[]): ClientCertificateAnswer {
  const peer = socket.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) {
    return { ok: false, status: 401, code: 'unauthorized', message: 'a client certificate is required' };
  }
  if (!socket.authorized) {
    const reason = String(socket.authorizationError ?? 'unknown');
    return {
      ok: false,
      status: 401,
      code: 'unauthorized',
      message: `the client certificate is not trusted (${reason})`,
    };
  }
  const cn = peer.subject?.CN;
  const name = Array.isArray(cn) ? cn[0] : cn;
  if (!name || !allowed.includes(name)) {
    return { ok: false, status: 403, code: 'forbidden', message: `"${name ?? ''}" may not read /metrics here` };
  }
  return { ok: true, name };
}
