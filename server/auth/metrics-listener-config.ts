import 'server-only';
import { getAuthService } from '@/server/auth/auth-service';
import { PLATFORM_PROMETHEUS } from '@/server/auth/client-certificate';
import { clientCaFromCluster, clientCaFromFile } from '@/server/auth/metrics-client-ca';
import { EnvError, metricsListenerEnv, serverEnv } from '@/server/env';
import { exposeServiceMetrics } from '@/server/engine/metrics-exposition';
import { startMetricsListener, type MetricsListener } from './metrics-listener';

/**
 * Starts the metrics listener the environment asks for (UPDATE_HEALTH_METRICS_PORT), or nothing. Throws EnvError
 * when it cannot be configured (no serving certificate), TlsFilesError when the files are unusable.
 */
export async function startConfiguredMetricsListener(): Promise<MetricsListener | undefined> {
  const env = metricsListenerEnv();
  if (env.port === undefined) return undefined;
  if (!env.certFile || !env.keyFile) {
    throw new EnvError(
      'UPDATE_HEALTH_METRICS_PORT needs UPDATE_HEALTH_TLS_CERT_FILE and _KEY_FILE: the metrics listener is TLS only',
    );
  }
  const kubeconfig = serverEnv().UPDATE_HEALTH_KUBECONFIG;
  if (!env.clientCaFile && !kubeconfig) {
    throw new EnvError(
      'UPDATE_HEALTH_METRICS_PORT on a fleet from a hub alone needs UPDATE_HEALTH_METRICS_CLIENT_CA_FILE: there is no ' +
        'kubeconfig cluster to read the monitoring client CA from',
    );
  }
  const clientCa = env.clientCaFile
    ? clientCaFromFile(env.clientCaFile)
    : clientCaFromCluster(kubeconfig!, getAuthService().authCluster());
  return startMetricsListener({
    host: env.host,
    port: env.port,
    certFile: env.certFile,
    keyFile: env.keyFile,
    clientCa,
    allowed: env.clientNames ?? [PLATFORM_PROMETHEUS],
    metrics: exposeServiceMetrics,
    warn: (message) => console.warn(`Update Health: ${message}`),
  });
}
