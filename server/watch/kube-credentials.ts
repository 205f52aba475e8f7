import 'server-only';
import type http from 'node:http';
import type https from 'node:https';
import { KubeConfig, type Cluster } from '@kubernetes/client-node';
import { KubeCredentialsError } from './kube-errors';
import { loadConfig, loadFileOnce } from './kubeconfig-loader';

/** Supplies a bearer token per request; `rejected` means the server just refused the last one. */
export type CredentialSource = (request: { rejected: boolean }) => Promise<{ token: string }>;

/** TLS and address of an API server whose credentials come from a {@link CredentialSource}. */
export interface ServerEndpoint {
  server: string;
  /** base64 PEM bundle (kubeconfig `certificate-authority-data`); system roots when absent. */
  caData?: string;
  insecureSkipTLSVerify?: boolean;
}

/** Where a transport's kubeconfig came from, so credentials can be reloaded when a token was rotated. */
export type ConfigSource = { kind: 'file'; path: string; context?: string } | { kind: 'object' };

/** The server, its TLS settings and the request options with every credential applied, for one request. */
export interface AppliedCredentials {
  cluster: Cluster;
  /** What client-node's `applyToHTTPSOptions` set (CA, client certificate, headers, a proxy's agent). */
  options: https.RequestOptions;
}

/**
 * The credentials of one transport: a client-node `KubeConfig` (CA, client certificates, bearer tokens, exec and
 * refreshable auth providers, proxies), reloaded from its file when a token was rotated, and optionally a
 * {@link CredentialSource} that supplies the bearer token in place of the kubeconfig user's.
 */
export class KubeCredentials {
  private config: KubeConfig;
  /** The last `Authorization` header sent, shared by the requests that send the same one. */
  private authorization: string | undefined;
  /** What the kubeconfig applied, while a credential source supplies the tokens (see `kept`). */
  private applied: Promise<AppliedCredentials> | undefined;

  constructor(
    config: KubeConfig,
    private readonly source: ConfigSource,
    private readonly tokens: CredentialSource | undefined,
  ) {
    this.config = tokens ? withoutUserAuth(config) : config;
  }

  /** The API server URL of the current context. */
  get server(): string {
    return this.config.getCurrentCluster()?.server ?? '';
  }

  /**
   * Re-reads the kubeconfig file it was loaded from (a rotated token or certificate).
   * Returns false when there is nothing to reload or the file cannot be read now.
   */
  reload(): boolean {
    if (this.source.kind !== 'file') return false;
    const { path, context } = this.source;
    try {
      const config = loadConfig((kc) => loadFileOnce(kc, path), context);
      this.config = this.tokens ? withoutUserAuth(config) : config;
      this.applied = undefined;
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The current cluster and request options with the kubeconfig's credentials applied, and the credential source's
   * token (asked with `rejected` after a 401). Throws KubeCredentialsError when either is unavailable.
   */
  async apply(rejected: boolean): Promise<AppliedCredentials> {
    const { cluster, options: applied } = await (this.tokens ? this.kept() : this.applyConfig());
    const options: https.RequestOptions = { ...applied, headers: { ...applied.headers } };
    if (this.tokens) {
      let token: string;
      try {
        ({ token } = await this.tokens({ rejected }));
      } catch (error) {
        throw new KubeCredentialsError(`credentials unavailable: ${(error as Error).message}`, { cause: error });
      }
      options.headers = { ...options.headers, Authorization: `Bearer ${token}` };
    }
    return { cluster, options };
  }

  /**
   * What the kubeconfig applies, kept until a reload: with a credential source the kubeconfig has no user auth left
   * that changes per request, and applying it builds an agent and reads the CA again each time (at thousands of
   * clusters through a hub, a good part of what the dashboard allocated). A failure is not kept.
   */
  private kept(): Promise<AppliedCredentials> {
    if (this.applied) return this.applied;
    const applying = this.applyConfig();
    this.applied = applying;
    applying.catch(() => {
      if (this.applied === applying) this.applied = undefined;
    });
    return applying;
  }

  private async applyConfig(): Promise<AppliedCredentials> {
    const cluster = this.config.getCurrentCluster();
    if (!cluster) throw new KubeCredentialsError('kubeconfig has no current cluster');
    const options: https.RequestOptions = { headers: {} };
    try {
      await this.config.applyToHTTPSOptions(options);
    } catch (error) {
      throw new KubeCredentialsError(`kubeconfig credentials unavailable: ${(error as Error).message}`, {
        cause: error,
      });
    }
    return { cluster, options };
  }

  /**
   * Has `headers` carry the equal `Authorization` string an earlier request sent. Every request's credentials are
   * built afresh, and an HTTP/2 stream keeps its headers for its life: the open watches of one server share one copy
   * of an unchanged token (a service account's is a kilobyte).
   */
  shareAuthorization(headers: http.OutgoingHttpHeaders): void {
    const authorization = headers.Authorization;
    // none to share: a header set to undefined is refused by node:http (a client certificate's requests)
    if (typeof authorization !== 'string') return;
    if (authorization === this.authorization) headers.Authorization = this.authorization;
    else this.authorization = authorization;
  }

  /**
   * True when tokens come from a credential source: a request the server answered 401 is then sent once more with a
   * fresh token (`apply(true)`), so a rotated token costs neither a relist nor an "unauthorized" status.
   */
  get renewsTokens(): boolean {
    return this.tokens !== undefined;
  }
}

/** A kubeconfig for `endpoint` with a user that has no credentials (a {@link CredentialSource} supplies them). */
export function endpointConfig(endpoint: ServerEndpoint): KubeConfig {
  const cluster = {
    name: 'cluster',
    server: endpoint.server,
    caData: endpoint.caData,
    skipTLSVerify: endpoint.insecureSkipTLSVerify ?? false,
  };
  return loadConfig((kc) =>
    kc.loadFromOptions({
      clusters: [cluster],
      users: [{ name: 'user' }],
      contexts: [{ name: 'cluster', cluster: 'cluster', user: 'user' }],
      currentContext: 'cluster',
    }),
  );
}

/** The config with its user's token, exec plugin and auth provider removed (credentials come from elsewhere). */
function withoutUserAuth(kc: KubeConfig): KubeConfig {
  const user = kc.getCurrentUser();
  if (!user) return kc;
  const { exec: _exec, authProvider: _provider, token: _token, ...rest } = user;
  void _exec;
  void _provider;
  void _token;
  const slim = new KubeConfig();
  slim.loadFromOptions({
    clusters: kc.clusters,
    users: [rest],
    contexts: kc.contexts,
    currentContext: kc.getCurrentContext(),
  });
  return slim;
}
