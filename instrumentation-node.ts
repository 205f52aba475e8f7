/**
 * What the server does at boot on the Node.js runtime (instrumentation.ts imports it only there, so the Edge compile
 * of instrumentation.ts never sees Node APIs). Without a configured kubeconfig the routes report the configuration
 * error themselves.
 */
import { refuseUnsupportedMethodsOnServer } from './server/http/unsupported-methods';
import { compressInOneStepOnServer } from './server/http/one-step-gzip';
import { drain } from './server/observability/shutdown';
import { getIncidentRepository } from './server/incidents/incident-store';
import { getFleet } from './server/engine/fleet';
import { guardUploadsOnServer } from './server/offline/upload-guard';
import { startConfiguredMetricsListener } from './server/auth/metrics-listener-config';

export function registerNode(): void {
  // TRACE/TRACK/CONNECT make Next answer 500 before the edge runs; answer them 405 with the security headers here.
  refuseUnsupportedMethodsOnServer();
  // proxy.ts leaves must-gather uploads alone (it would buffer the whole body): this guard refuses an oversized,
  // unauthenticated or over-quota upload before reading its body, and admits the rest with the edge's viewer header.
  guardUploadsOnServer();
  // The fleet list (megabytes at thousands of clusters) is compressed in one step, not in 16 KiB event-loop turns.
  compressInOneStepOnServer();
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
