import 'server-only';
import { readPemFile } from '@/server/http/tls-files';
import { KubeTransport } from '@/server/watch/kube-transport';

/**
 * Where the API server publishes the CA of the client certificates it accepts (kube-system, readable through the
 * `extension-apiserver-authentication-reader` Role every cluster has). On OpenShift it holds the kube-apiserver
 * client signer that issued platform Prometheus's `metrics-client-certs`: the cluster-version operator's metrics
 * server verifies scrapes against the same key, and cluster monitoring copies it into its `metrics-client-ca`.
 */
export const CLIENT_CA_CONFIGMAP_PATH = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
export const CLIENT_CA_KEY = 'client-ca-file';

/** The client CA cannot be read (file or cluster), or holds no certificate. */
export class ClientCaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClientCaError';
  }
}

/** Reads the client CA bundle (PEM); called again on every reload, so a rotated signer is picked up. */
export type ClientCaSource = () => Promise<string>;

function checked(pem: string, where: string): string {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new ClientCaError(`${where} holds no PEM certificate`);
  return pem;
}

/** A CA bundle from a file (tests, clusters that publish it elsewhere). */
export function clientCaFromFile(file: string): ClientCaSource {
  return async () => checked(readPemFile(file, 'client CA'), file);
}

/** The API server's client CA, read with the dashboard's own credentials from a kubeconfig context. */
export function clientCaFromCluster(kubeconfigPath: string, context: string): ClientCaSource {
  const transport = KubeTransport.fromFile(kubeconfigPath, { context, headerTimeoutMs: 10_000, idleTimeoutMs: 10_000 });
  const where = `${CLIENT_CA_CONFIGMAP_PATH} (${CLIENT_CA_KEY}) on ${context}`;
  return async () => {
    type ConfigMap = { data?: Record<string, string> };
    let configMap: ConfigMap;
    try {
      configMap = await transport.getJson<ConfigMap>(CLIENT_CA_CONFIGMAP_PATH).catch((error: unknown) => {
        // A rotated service-account token: read the kubeconfig's credentials again and ask once more.
        if ((error as { name?: string; code?: number }).code !== 401 || !transport.reloadCredentials()) throw error;
        return transport.getJson<ConfigMap>(CLIENT_CA_CONFIGMAP_PATH);
      });
    } catch (error) {
      throw new ClientCaError(`cannot read ${where}: ${(error as Error).message}`, { cause: error });
    }
    return checked(configMap.data?.[CLIENT_CA_KEY] ?? '', where);
  };
}
