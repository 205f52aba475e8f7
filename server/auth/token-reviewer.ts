import 'server-only';
import { createHash } from 'node:crypto';
import type { UserIdentity } from './identity';

/** The cluster could not be asked (unreachable, the service's own credentials rejected): 503, not 401. */
export class AuthUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthUnavailableError';
  }
}

interface TokenReviewAnswer {
  status?: { authenticated?: boolean; user?: { username?: string; groups?: string[] } };
}

const TOKEN_REVIEW_PATH = '/apis/authentication.k8s.io/v1/tokenreviews';

/**
 * Validates bearer tokens with TokenReview on the auth cluster, caching answers briefly (a minute for a valid token,
 * ten seconds for a rejected one) so a dashboard polling with one token costs one review a minute.
 */
export class TokenReviewer {
  private readonly cache = new Map<string, { user: UserIdentity | undefined; until: number }>();

  constructor(
    private readonly post: (path: string, body: unknown) => Promise<unknown>,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = { valid: 60_000, invalid: 10_000 },
  ) {}

  /** The user behind the token, or undefined when the cluster does not authenticate it. */
  async review(token: string): Promise<UserIdentity | undefined> {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = this.cache.get(key);
    if (cached && cached.until > this.now()) return cached.user;
    let answer: TokenReviewAnswer;
    try {
      answer = (await this.post(TOKEN_REVIEW_PATH, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } })) as TokenReviewAnswer;
    } catch (error) {
      throw new AuthUnavailableError(`cannot validate the token with the cluster: ${(error as Error).message}`, { cause: error });
    }
    const name = answer.status?.authenticated ? answer.status.user?.username : undefined;
    const user = name ? { name, groups: answer.status?.user?.groups ?? [] } : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { user, until: this.now() + (user ? this.ttlMs.valid : this.ttlMs.invalid) });
    return user;
  }
}
