import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import type { AccessAnswers, AccessCheck } from '@/lib/access/access-check';
import { authEnv, serverEnv, type AuthEnv } from '@/server/env';
import { getFleet } from '@/server/engine/fleet';
import { AccessReviewer } from './access-reviewer';
import { SCOPES_EXTRA_KEY, type UserIdentity, type Viewer } from './identity';
import { LoginError, OAuthLogin, type PendingLogin } from './oauth-login';
import { sessionKey, type SessionRecord, type SessionRepository } from './session-repository';
import { SessionSealer, sessionSealer } from './session-sealer';
import { getSessionRepository } from './session-store';
import { tlsFetch } from './tls-fetch';
import { TokenReviewer } from './token-reviewer';

/** What tests (and only they) put in place of the parts built from the environment. */
export interface AuthServiceParts {
  login?: OAuthLogin;
  sealer?: SessionSealer;
}

/**
 * The subject a SubjectAccessReview asks about. A bearer token is held to its scopes (its `extra`), as
 * kube-rbac-proxy holds it. A session's token is the one the dashboard asked for, `user:info user:check-access`:
 * check-access is OpenShift's grant to learn what the user may do unscoped (its self-review with `scopes: []`, as
 * oauth-proxy's --openshift-sar asks), which is what the dashboard shows; other scopes of a session still apply.
 */
export function reviewSubject(viewer: Extract<Viewer, { kind: 'user' }>): UserIdentity {
  const scopes = viewer.user.extra?.[SCOPES_EXTRA_KEY];
  if (viewer.via !== 'session' || !scopes?.includes('user:check-access')) return viewer.user;
  const extra = Object.fromEntries(Object.entries(viewer.user.extra ?? {}).filter(([key]) => key !== SCOPES_EXTRA_KEY));
  return { ...viewer.user, extra: Object.keys(extra).length > 0 ? extra : undefined };
}

/**
 * Everything about who is looking, in one place: login through the auth cluster's OAuth server, sessions in the
 * incident database, bearer tokens by TokenReview, and per-cluster access by SubjectAccessReview.
 */
export class AuthService {
  readonly tokens: TokenReviewer;
  readonly access: AccessReviewer;
  private login: OAuthLogin | undefined;
  private sealer: SessionSealer | undefined;
  private readonly reviewing = new Map<string, Promise<SessionRecord | undefined>>();

  constructor(
    readonly env: AuthEnv,
    private readonly sessions: () => SessionRepository,
    /** The fleet member (kubeconfig context) whose OAuth server, reviews and client CA the dashboard trusts. */
    readonly authCluster: () => string,
    review: (clusterId: string, path: string, body: unknown) => Promise<unknown>,
    private readonly now: () => number = Date.now,
    parts: AuthServiceParts = {},
  ) {
    this.tokens = new TokenReviewer((path, body) => review(this.authCluster(), path, body), now);
    this.access = new AccessReviewer(review, now);
    this.login = parts.login;
    this.sealer = parts.sealer;
  }

  /** The session token sealer, made on first use (a missing key fails the login that needs it, not the process). */
  private seal(): SessionSealer {
    this.sealer ??= sessionSealer(this.env);
    return this.sealer;
  }

  get mode(): AuthEnv['UPDATE_HEALTH_AUTH'] {
    return this.env.UPDATE_HEALTH_AUTH;
  }

  private oauth(): OAuthLogin {
    if (this.login) return this.login;
    const kubeconfig = serverEnv().UPDATE_HEALTH_KUBECONFIG;
    if (!kubeconfig)
      throw new LoginError(
        'login needs the auth cluster in a kubeconfig (--kubeconfig, --auth-cluster)',
        'unavailable',
      );
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfig);
    const context = kubeConfig.getContextObject(this.authCluster());
    const cluster = context ? kubeConfig.getCluster(context.cluster) : null;
    if (!cluster) {
      throw new LoginError(`the auth cluster "${this.authCluster()}" is not in the kubeconfig`, 'unavailable');
    }
    const caFile = this.env.UPDATE_HEALTH_OAUTH_CA_FILE ?? cluster.caFile;
    const ca = caFile
      ? readFileSync(caFile, 'utf8')
      : cluster.caData
        ? Buffer.from(cluster.caData, 'base64').toString('utf8')
        : undefined;
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
    return this.oauth()
      .authorizationServer()
      .then(
        (as) => as.issuer,
        () => undefined,
      );
  }

  beginLogin(redirectUri: string, then: string): Promise<{ location: string; pending: PendingLogin }> {
    return this.oauth().begin(redirectUri, then);
  }

  /** Completes a login: token from the code, user from TokenReview, a session in the database. */
  async finishLogin(
    callback: URL,
    pending: PendingLogin,
    redirectUri: string,
  ): Promise<{ cookieValue: string; maxAgeSeconds: number; user: UserIdentity }> {
    const { accessToken, expiresInSeconds } = await this.oauth().finish(callback, pending, redirectUri);
    return this.startSession(accessToken, expiresInSeconds);
  }

  /**
   * A session for a fresh OAuth access token: the user as TokenReview reports them, the token sealed beside it, ending
   * when the token does or at the maximum session age, whichever is first.
   */
  async startSession(
    accessToken: string,
    expiresInSeconds: number,
  ): Promise<{ cookieValue: string; maxAgeSeconds: number; user: UserIdentity }> {
    const user = await this.tokens.review(accessToken, { fresh: true });
    if (!user) {
      throw new LoginError('the cluster does not accept the token its OAuth server just issued', 'not_authenticated');
    }
    const cookieValue = randomBytes(32).toString('base64url');
    const key = sessionKey(cookieValue);
    const now = this.now();
    const maxAgeSeconds = Math.min(expiresInSeconds, this.env.UPDATE_HEALTH_SESSION_MAX_AGE_SECONDS);
    await this.sessions().create(key, {
      user,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + maxAgeSeconds * 1_000).toISOString(),
      sealedToken: this.seal().seal(accessToken, key),
      reviewedAt: new Date(now).toISOString(),
    });
    return { cookieValue, maxAgeSeconds, user };
  }

  /**
   * The viewer of a session cookie. Every UPDATE_HEALTH_SESSION_REVIEW_SECONDS (at most 5 min) its token is reviewed
   * again: a token the cluster no longer accepts (deleted, its user deleted) ends the session; changed groups are
   * taken over. A cluster that cannot be asked throws AuthUnavailableError (503) and ends nothing.
   */
  async viewerForSession(cookieValue: string): Promise<Viewer | undefined> {
    const key = sessionKey(cookieValue);
    let session = await this.sessions().get(key, new Date(this.now()));
    const reviewEveryMs = this.env.UPDATE_HEALTH_SESSION_REVIEW_SECONDS * 1_000;
    if (session && this.now() - Date.parse(session.reviewedAt) >= reviewEveryMs) {
      const pending =
        this.reviewing.get(key) ?? this.reviewSession(key, session).finally(() => this.reviewing.delete(key));
      this.reviewing.set(key, pending);
      session = await pending;
    }
    return session ? { kind: 'user', user: session.user, via: 'session' } : undefined;
  }

  private async reviewSession(key: string, session: SessionRecord): Promise<SessionRecord | undefined> {
    const token = session.sealedToken ? this.seal().open(session.sealedToken, key) : undefined;
    const user = token ? await this.tokens.review(token, { fresh: true }) : undefined;
    if (!user || user.name !== session.user.name) {
      await this.sessions().delete(key);
      return undefined;
    }
    const reviewedAt = new Date(this.now()).toISOString();
    // Access answers cached for the old groups are not reused: the review cache is keyed by the groups too.
    await this.sessions().reviewed(key, user, reviewedAt);
    return { ...session, user, reviewedAt };
  }

  /** The viewer of a bearer token; `client` (the caller's address) pays for a token the cache does not know. */
  async viewerForToken(token: string, client?: string): Promise<Viewer | undefined> {
    const user = await this.tokens.review(token, { client });
    return user ? { kind: 'user', user, via: 'bearer' } : undefined;
  }

  /**
   * Ends a session everywhere (it is deleted from the database) and deletes its OAuth access token on the cluster, so
   * the next visit logs in again instead of riding on the OAuth server's login. A token that cannot be deleted is
   * reported (the session is gone either way).
   */
  async logout(cookieValue: string): Promise<{ tokenDeleted: boolean }> {
    const key = sessionKey(cookieValue);
    const session = await this.sessions().get(key, new Date(0));
    await this.sessions().delete(key);
    const token = session?.sealedToken ? this.seal().open(session.sealedToken, key) : undefined;
    if (!token) return { tokenDeleted: false };
    this.tokens.forget(token);
    try {
      await this.oauth().deleteAccessToken(token);
      return { tokenDeleted: true };
    } catch (error) {
      console.warn(`Update Health: logout could not delete the OAuth access token: ${(error as Error).name}`);
      return { tokenDeleted: false };
    }
  }

  /** Access answers for a viewer on the cluster that governs a fleet member; the local operator sees everything. */
  async answers(viewer: Viewer, memberId: string, checks: readonly AccessCheck[]): Promise<AccessAnswers> {
    if (viewer.kind === 'local') return () => true;
    const cluster = getFleet().accessCluster(memberId);
    if (!cluster) return () => false;
    return this.answersOn(cluster, viewer, checks);
  }

  /** Whether a fleet cluster decides who may see this member (false for a cluster that left the fleet). */
  governs(memberId: string): boolean {
    return getFleet().accessCluster(memberId) !== undefined;
  }

  /** Access answers on one cluster of the fleet (an engine id). */
  answersOn(clusterId: string, viewer: Viewer, checks: readonly AccessCheck[]): Promise<AccessAnswers> {
    if (viewer.kind === 'local') return Promise.resolve(() => true);
    return this.access.answers(clusterId, reviewSubject(viewer), checks);
  }

  /** Whether the viewer may GET a non-resource URL (e.g. /metrics) on the auth cluster, as kube-rbac-proxy checks. */
  async mayGetPath(viewer: Viewer, path: string): Promise<boolean> {
    if (viewer.kind === 'local') return true;
    return this.access.allowedPath(this.authCluster(), reviewSubject(viewer), 'get', path);
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
