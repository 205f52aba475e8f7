/**
 * What the server does at boot on the Node.js runtime (instrumentation.ts imports it only there, so the Edge compile
 * of instrumentation.ts never sees Node APIs). Without a configured kubeconfig the routes report the configuration
 * error themselves.
 */
import { installRequestHooks, type RequestHook } from './server/http/request-hooks';
import { refuseUnsupportedMethodOnServer } from './server/http/unsupported-methods';
import { guardUpload } from './server/offline/upload-guard';
import { restorePreEncoded } from './server/http/pre-encoded';
import { drain } from './server/observability/shutdown';
import { getIncidentRepository } from './server/incidents/incident-store';
import { getFleet } from './server/engine/fleet';
import { startConfiguredMetricsListener } from './server/auth/metrics-listener-config';

/**
 * What the Node server does to a request before Next sees it, in this order. The method guard comes first: TRACE and
 * its kin (which make Next answer 500 before the edge runs) get 405 with the security headers on any path, the upload
 * path included, before anything authenticates them. The upload guard then drops a client-sent viewer header and
 * refuses an oversized, unauthenticated or over-quota must-gather upload before its body is read (proxy.ts leaves
 * uploads alone: it would buffer the whole body). Last, an answer's own encoding, named by its route, is put back
 * where Next drops it: the fleet list's route compresses the list in the call that builds it.
 */
export const NODE_REQUEST_HOOKS: readonly RequestHook[] = [
  refuseUnsupportedMethodOnServer,
  guardUpload,
  restorePreEncoded,
];

export function registerNode(): void {
  installRequestHooks(NODE_REQUEST_HOOKS);
  // Graceful stop (Next closes the listener and waits for open responses): end the event streams so clients
  // reconnect to another replica, then close watches and databases.
  process.once('SIGTERM', () => void drain());
  if (!process.env.UPDATE_HEALTH_KUBECONFIG) return;
  // Platform Prometheus scrapes a port of its own with its client certificate (deploy/openshift/servicemonitor.yaml).
  startConfiguredMetricsListener().then(
    (listener) => {
      if (listener) console.log(`Update Health: metrics for platform Prometheus on port ${listener.port} (mutual TLS)`);
    },
    (error: unknown) => console.error(`Update Health: cannot start the metrics listener: ${(error as Error).message}`),
  );
  // Opening the incident store starts its retention: expired incidents go at boot, not at the first request.
  try {
    getIncidentRepository();
  } catch (error) {
    console.error(`Update Health: cannot open the incident store: ${(error as Error).message}`);
  }
  try {
    getFleet();
  } catch (error) {
    console.error(`Update Health: cannot start watching: ${error instanceof Error ? error.message : String(error)}`);
  }
}
