/**
 * Starts watching the configured clusters when the server boots, so the first page already has synced data
 * instead of starting the fleet on the first request. Without a configured kubeconfig the routes report the
 * configuration error themselves.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // TRACE/TRACK/CONNECT make Next answer 500 before the edge runs; answer them 405 with the security headers here.
  const { refuseUnsupportedMethodsOnServer } = await import('./server/http/unsupported-methods');
  refuseUnsupportedMethodsOnServer();
  // proxy.ts leaves must-gather uploads alone (it would buffer the whole body): this guard refuses an oversized,
  // unauthenticated or over-quota upload before reading its body, and admits the rest with the edge's viewer header.
  const { guardUploadsOnServer } = await import('./server/offline/upload-guard');
  guardUploadsOnServer();
  // Graceful stop (Next closes the listener and waits for open responses): end the event streams so clients
  // reconnect to another replica, then close watches and databases.
  const { drain } = await import('./server/observability/shutdown');
  process.once('SIGTERM', () => void drain());
  if (!process.env.UPDATE_HEALTH_KUBECONFIG) return;
  // Platform Prometheus scrapes a port of its own with its client certificate (deploy/openshift/servicemonitor.yaml).
  const { startConfiguredMetricsListener } = await import('./server/observability/metrics-listener-config');
  try {
    const listener = await startConfiguredMetricsListener();
    if (listener) console.log(`Update Health: metrics for platform Prometheus on port ${listener.port} (mutual TLS)`);
  } catch (error) {
    console.error(`Update Health: cannot start the metrics listener: ${(error as Error).message}`);
  }
  // Opening the incident store starts its retention: expired incidents go at boot, not at the first request.
  const { getIncidentRepository } = await import('./server/incidents/incident-store');
  try {
    getIncidentRepository();
  } catch (error) {
    console.error(`Update Health: cannot open the incident store: ${(error as Error).message}`);
  }
  const { getFleet } = await import('./server/engine/fleet');
  try {
    getFleet();
  } catch (error) {
    console.error(`Update Health: cannot start watching: ${error instanceof Error ? error.message : String(error)}`);
  }
}
