import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { AccessAnswers, AccessCheck } from '@/lib/access/access-check';
import { authEnv, serverEnv, type AuthEnv } from '@/server/env';
import { getFleet } from '@/server/engine/fleet';
import { AccessReviewer } from './access-reviewer';
import type { UserIdentity, Viewer } from './identity';
import { LoginError, OAuthLogin, type PendingLogin } from './oauth-login';
import { sessionKey, type SessionRepository } from './session-repository';
import { getSessionRepository } from './session-store';
import { tlsFetch } from './tls-fetch';
import { TokenReviewer } from './token-reviewer';

/**
 * Everything about who is looking, in one place: login through the auth cluster's OAuth server, sessions in the
 * incident database, bearer tokens by TokenReview, and per-cluster access by SubjectAccessReview.
 */
export class AuthService {
  readonly tokens: TokenReviewer;
  readonly access: AccessReviewer;
  private login: OAuthLogin | undefined;

  constructor(
    readonly env: AuthEnv,
    private readonly sessions: () => SessionRepository,
    private readonly authCluster: () => string,
    review: (clusterId: string, path: string, body: unknown) => Promise<unknown>,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = new TokenReviewer((path, body) => review(this.authCluster(), path, body), now);
    this.access = new AccessReviewer(review, now);
  }

  get mode(): AuthEnv['UPDATE_HEALTH_AUTH'] {
    return this.env.UPDATE_HEALTH_AUTH;
  }

  private oauth(): OAuthLogin {
    if (this.login) return this.login;
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(serverEnv().UPDATE_HEALTH_KUBECONFIG);
    const context = kubeConfig.getContextObject(this.authCluster());
    const cluster = context ? kubeConfig.getCluster(context.cluster) : null;
    if (!cluster) throw new LoginError(`the auth cluster "${this.authCluster()}" is not in the kubeconfig`);
    const caFile = this.env.UPDATE_HEALTH_OAUTH_CA_FILE ?? cluster.caFile;
    const ca = caFile ? readFileSync(caFile, 'utf8') : cluster.caData ? Buffer.from(cluster.caData, 'base64').toString('utf8') : undefined;
    const secretFile = this.env.UPDATE_HEALTH_OAUTH_CLIENT_SECRET_FILE;
    this.login = new OAuthLogin({
      apiServer: cluster.server,
      clientId: this.env.UPDATE_HEALTH_OAUTH_CLIENT_ID,
      // Re-read on every login: a projected service-account token rotates.
      clientSecret: () => readFileSync(secretFile, 'utf8').trim(),
      fetch: tlsFetch(ca),
    });
    return this.login;
  }

  /** The OAuth server's issuer URL (what `GET /api/auth` reports), or undefined while it cannot be reached. */
  async issuer(): Promise<string | undefined> {
    if (this.mode !== 'openshift') return undefined;
    return this.oauth().authorizationServer().then((as) => as.issuer, () => undefined);
  }

  beginLogin(redirectUri: string, then: string): Promise<{ location: string; pending: PendingLogin }> {
    return this.oauth().begin(redirectUri, then);
  }

  /** Completes a login: token from the code, user from TokenReview, a session in the database. */
  async finishLogin(callback: URL, pending: PendingLogin, redirectUri: string): Promise<{ cookieValue: string; maxAgeSeconds: number; user: UserIdentity }> {
    const { accessToken, expiresInSeconds } = await this.oauth().finish(callback, pending, redirectUri);
    const user = await this.tokens.review(accessToken);
    if (!user) throw new LoginError('the cluster does not accept the token its OAuth server just issued');
    const cookieValue = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.sessions().create(sessionKey(cookieValue), {
      user, createdAt: new Date(now).toISOString(), expiresAt: new Date(now + expiresInSeconds * 1_000).toISOString(),
    });
    return { cookieValue, maxAgeSeconds: expiresInSeconds, user };
  }

  async viewerForSession(cookieValue: string): Promise<Viewer | undefined> {
    const session = await this.sessions().get(sessionKey(cookieValue), new Date(this.now()));
    return session ? { kind: 'user', user: session.user, via: 'session' } : undefined;
  }

  async viewerForToken(token: string): Promise<Viewer | undefined> {
    const user = await this.tokens.review(token);
    return user ? { kind: 'user', user, via: 'bearer' } : undefined;
  }

  async logout(cookieValue: string): Promise<void> {
    await this.sessions().delete(sessionKey(cookieValue));
  }

  /** Access answers for a viewer on the cluster that governs a fleet member; the local operator sees everything. */
  async answers(viewer: Viewer, memberId: string, checks: readonly AccessCheck[]): Promise<AccessAnswers> {
    if (viewer.kind === 'local') return () => true;
    const cluster = getFleet().accessCluster(memberId);
    if (!cluster) return () => false;
    return this.access.answers(cluster, viewer.user, checks);
  }

  /** Whether the viewer may GET a non-resource URL (e.g. /metrics) on the auth cluster, as kube-rbac-proxy checks. */
  async mayGetPath(viewer: Viewer, path: string): Promise<boolean> {
    if (viewer.kind === 'local') return true;
    return this.access.allowedPath(this.authCluster(), viewer.user, 'get', path);
  }
}

const holder = globalThis as unknown as { __updateHealthAuth?: AuthService };

/** The process-wide auth service (one per process, shared by the edge and every route). */
export function getAuthService(): AuthService {
  if (!holder.__updateHealthAuth) {
    const env = authEnv();
    holder.__updateHealthAuth = new AuthService(
      env,
      getSessionRepository,
      () => env.UPDATE_HEALTH_AUTH_CLUSTER ?? getFleet().ids()[0],
      (clusterId, path, body) => getFleet().review(clusterId, path, body),
    );
  }
  return holder.__updateHealthAuth;
}
