import 'server-only';
import { createHash } from 'node:crypto';
import { RateLimiter } from '@/server/http/rate-limit';
import { ExpiringLru } from './expiring-lru';
import { userIdentitySchema, type UserIdentity } from './identity';

/** The cluster could not be asked (unreachable, the service's own credentials rejected): 503, not 401. */
export class AuthUnavailableError extends Error {
  readonly code = 'auth_unavailable';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthUnavailableError';
  }
}

/** Too many reviews of tokens the cache does not know, from one client or in all: 429 with Retry-After. */
export class ReviewRateLimitedError extends Error {
  readonly code = 'review_rate_limited';

  constructor(readonly retryAfterSeconds: number) {
    super('too many unknown tokens presented; try again later');
    this.name = 'ReviewRateLimitedError';
  }
}

/** Whether an error is one of the two above, by its `name` (module copies in different bundles share no class). */
export function isAuthError<N extends 'AuthUnavailableError' | 'ReviewRateLimitedError'>(
  error: unknown,
  name: N,
): error is N extends 'AuthUnavailableError' ? AuthUnavailableError : ReviewRateLimitedError {
  return error instanceof Error && error.name === name;
}

interface TokenReviewAnswer {
  status?: { authenticated?: boolean; user?: { username?: string; uid?: string; groups?: string[]; extra?: unknown } };
}

const TOKEN_REVIEW_PATH = '/apis/authentication.k8s.io/v1/tokenreviews';

/** How long answers live, how many are kept, and how fast unknown tokens may be reviewed. */
export interface TokenReviewOptions {
  validTtlMs: number;
  invalidTtlMs: number;
  maxEntries: number;
  /** Reviews of uncached tokens per client address: a burst, then a steady rate. */
  perClient: { capacity: number; refillPerSecond: number };
  /** The same over all clients (a client that varies its address still cannot flood the cluster). */
  overall: { capacity: number; refillPerSecond: number };
}

/** Defaults: a dashboard polling with one token costs one review a minute; one client may try 2 new tokens a second. */
export const TOKEN_REVIEW_DEFAULTS: TokenReviewOptions = {
  validTtlMs: 60_000,
  invalidTtlMs: 30_000,
  maxEntries: 10_000,
  perClient: { capacity: 20, refillPerSecond: 2 },
  overall: { capacity: 200, refillPerSecond: 50 },
};

function identityOf(answer: TokenReviewAnswer): UserIdentity | undefined {
  const status = answer.status;
  if (!status?.authenticated || !status.user?.username) return undefined;
  const { username, uid, groups, extra } = status.user;
  // An answer we cannot read whole (an `extra` not of string lists) authenticates nobody: dropping the scopes in it
  // would widen what the token may do.
  const parsed = userIdentitySchema.safeParse({
    name: username,
    groups: groups ?? [],
    uid: uid || undefined,
    extra: extra ?? undefined,
  });
  return parsed.success ? parsed.data : undefined;
}

/**
 * Validates bearer tokens with TokenReview on the auth cluster. Answers are cached (valid and rejected tokens in
 * separate bounded LRU caches, so rejected ones never push valid users out), concurrent reviews of one token are
 * shared, and reviews of tokens the cache does not know are rate-limited per client address and overall.
 */
export class TokenReviewer {
  private readonly valid: ExpiringLru<UserIdentity>;
  private readonly invalid: ExpiringLru<true>;
  private readonly inflight = new Map<string, Promise<UserIdentity | undefined>>();
  private readonly perClient: RateLimiter;
  private readonly overall: RateLimiter;
  private readonly options: TokenReviewOptions;

  constructor(
    private readonly post: (path: string, body: unknown) => Promise<unknown>,
    private readonly now: () => number = Date.now,
    options: Partial<TokenReviewOptions> = {},
  ) {
    this.options = { ...TOKEN_REVIEW_DEFAULTS, ...options };
    this.valid = new ExpiringLru(this.options.maxEntries, now);
    this.invalid = new ExpiringLru(this.options.maxEntries, now);
    this.perClient = new RateLimiter({ ...this.options.perClient, maxKeys: this.options.maxEntries }, now);
    this.overall = new RateLimiter({ ...this.options.overall, maxKeys: 1 }, now);
  }

  /**
   * The user behind the token, or undefined when the cluster does not authenticate it. `client` (the caller's
   * address) is charged for a token not in the cache; `fresh` skips the cache (a session's periodic re-validation).
   * Throws ReviewRateLimitedError over the limit, AuthUnavailableError when the cluster cannot be asked.
   */
  async review(token: string, options: { client?: string; fresh?: boolean } = {}): Promise<UserIdentity | undefined> {
    const key = createHash('sha256').update(token).digest('base64url');
    if (!options.fresh) {
      const known = this.valid.get(key);
      if (known) return known.value;
      if (this.invalid.has(key)) return undefined;
    }
    const pending = this.inflight.get(key);
    if (pending) return pending;
    if (options.client !== undefined) {
      const limited = [this.perClient.take(options.client), this.overall.take('all')].find((result) => !result.ok);
      if (limited && !limited.ok) throw new ReviewRateLimitedError(limited.retryAfterSeconds);
    }
    const question = this.ask(token, key).finally(() => this.inflight.delete(key));
    this.inflight.set(key, question);
    return question;
  }

  /** Forgets a token (after logout deleted it on the cluster). */
  forget(token: string): void {
    const key = createHash('sha256').update(token).digest('base64url');
    this.valid.delete(key);
    this.invalid.set(key, true, this.options.invalidTtlMs);
  }

  /** Cached answers (for tests and metrics). */
  get size(): { valid: number; invalid: number } {
    return { valid: this.valid.size, invalid: this.invalid.size };
  }

  private async ask(token: string, key: string): Promise<UserIdentity | undefined> {
    let answer: TokenReviewAnswer;
    try {
      answer = (await this.post(TOKEN_REVIEW_PATH, {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token },
      })) as TokenReviewAnswer;
    } catch (error) {
      throw new AuthUnavailableError(`cannot validate the token with the cluster: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const user = identityOf(answer);
    if (user) {
      this.invalid.delete(key);
      this.valid.set(key, user, this.options.validTtlMs);
    } else {
      this.valid.delete(key);
      this.invalid.set(key, true, this.options.invalidTtlMs);
    }
    return user;
  }
}
