/**
 * What the server does at boot on the Node.js runtime (instrumentation.ts imports it only there, so the Edge compile
 * of instrumentation.ts never sees Node APIs). Without a configured kubeconfig the routes report the configuration
 * error themselves.
 */
import { refuseUnsupportedMethodsOnServer } from './server/http/unsupported-methods';
import { drain } from './server/observability/shutdown';
import { getIncidentRepository } from './server/incidents/incident-store';
import { getFleet } from './server/engine/fleet';

export function registerNode(): void {
  // TRACE/TRACK/CONNECT make Next answer 500 before the edge runs; answer them 405 with the security headers here.
  refuseUnsupportedMethodsOnServer();
  // Graceful stop (Next closes the listener and waits for open responses): end the event streams so clients
  // reconnect to another replica, then close watches and databases.
  process.once('SIGTERM', () => void drain());
  if (!process.env.UPDATE_HEALTH_KUBECONFIG) return;
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
