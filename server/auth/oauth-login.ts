import 'server-only';
import { createHash } from 'node:crypto';
import * as oauth from 'oauth4webapi';

/** The scopes the dashboard asks for: who the user is, nothing that could read or change the cluster as them. */
export const LOGIN_SCOPES = 'user:info user:check-access';

/** Why a login failed, in words the callback page may show (never the OAuth server's or the caller's text). */
export type LoginFailure = 'refused' | 'exchange_failed' | 'not_authenticated' | 'unavailable';

/**
 * A login could not be completed (expired or forged state, a refused code, an OAuth server error). Recognised by its
 * `name` and `failure` code: an `instanceof` check fails when the edge and a route are bundled apart.
 */
export class LoginError extends Error {
  constructor(
    message: string,
    readonly failure: LoginFailure = 'unavailable',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LoginError';
  }
}

/** Whether an error is a LoginError (from any bundle's copy of this module). */
export function isLoginError(error: unknown): error is LoginError {
  return (
    error instanceof Error &&
    error.name === 'LoginError' &&
    typeof (error as { failure?: unknown }).failure === 'string'
  );
}

/**
 * The name of a token's OAuthAccessToken object: `sha256~` + base64url(sha256 of the token without its `sha256~`
 * prefix), as OpenShift 4.6+ names them.
 */
export function accessTokenObjectName(token: string): string {
  return `sha256~${createHash('sha256')
    .update(token.replace(/^sha256~/, ''))
    .digest('base64url')}`;
}

/** What the browser carries between /auth/login and /auth/callback (in a short-lived HttpOnly cookie). */
export interface PendingLogin {
  state: string;
  verifier: string;
  then: string;
}

/** The OAuth client side of OpenShift login: authorization code with PKCE (S256), via oauth4webapi. */
export class OAuthLogin {
  private server: Promise<oauth.AuthorizationServer> | undefined;

  constructor(
    private readonly options: {
      /** The API server URL (it advertises the OAuth server at /.well-known/oauth-authorization-server). */
      apiServer: string;
      clientId: string;
      clientSecret: () => string;
      fetch: typeof fetch;
    },
  ) {}

  /** The OAuth server's metadata: the issuer the API server names, then RFC 8414 discovery on that issuer. */
  authorizationServer(): Promise<oauth.AuthorizationServer> {
    this.server ??= (async () => {
      const pointer = await this.options.fetch(
        new URL('/.well-known/oauth-authorization-server', this.options.apiServer),
      );
      if (!pointer.ok) throw new LoginError(`the cluster does not advertise an OAuth server (HTTP ${pointer.status})`);
      const { issuer } = (await pointer.json()) as { issuer?: string };
      if (!issuer) throw new LoginError("the cluster's OAuth metadata names no issuer");
      const issuerUrl = new URL(issuer);
      const response = await oauth.discoveryRequest(issuerUrl, {
        algorithm: 'oauth2',
        [oauth.customFetch]: this.options.fetch,
      });
      return oauth.processDiscoveryResponse(issuerUrl, response);
    })();
    // A failed discovery is retried on the next login rather than cached.
    this.server.catch(() => {
      this.server = undefined;
    });
    return this.server;
  }

  private client(): oauth.Client {
    return { client_id: this.options.clientId };
  }

  /** Where to send the browser, and what to remember until it comes back. */
  async begin(redirectUri: string, then: string): Promise<{ location: string; pending: PendingLogin }> {
    const as = await this.authorizationServer();
    if (!as.authorization_endpoint) throw new LoginError('the OAuth server has no authorization endpoint');
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set('client_id', this.options.clientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', LOGIN_SCOPES);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('state', state);
    return { location: url.toString(), pending: { state, verifier, then } };
  }

  /** Exchanges the code of the callback for an access token (kept on the server, never sent to the browser). */
  async finish(
    callback: URL,
    pending: PendingLogin,
    redirectUri: string,
  ): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const as = await this.authorizationServer();
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, this.client(), callback, pending.state);
    } catch (error) {
      throw new LoginError(`the OAuth server refused the login: ${(error as Error).message}`, 'refused', {
        cause: error,
      });
    }
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        this.client(),
        oauth.ClientSecretPost(this.options.clientSecret()),
        params,
        redirectUri,
        pending.verifier,
        {
          [oauth.customFetch]: this.options.fetch,
        },
      );
      const result = await oauth.processAuthorizationCodeResponse(as, this.client(), response);
      return { accessToken: result.access_token, expiresInSeconds: result.expires_in ?? 86_400 };
    } catch (error) {
      const message = `the code could not be exchanged for a token: ${(error as Error).message}`;
      throw new LoginError(message, 'exchange_failed', { cause: error });
    }
  }

  /**
   * Deletes an access token on the cluster (logout), as the dashboard's service account: OpenShift lets every
   * authenticated user delete a token whose name they know (system:oauth-token-deleter), and the user's own token is
   * scoped too narrowly to. A token already gone counts as deleted; anything else throws.
   */
  async deleteAccessToken(token: string): Promise<void> {
    const name = encodeURIComponent(accessTokenObjectName(token));
    const url = new URL(`/apis/oauth.openshift.io/v1/oauthaccesstokens/${name}`, this.options.apiServer);
    const response = await this.options.fetch(url, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${this.options.clientSecret()}` },
    });
    if (!response.ok && response.status !== 404) {
      throw new Error(`deleting the OAuth access token answered HTTP ${response.status}`);
    }
  }
}
