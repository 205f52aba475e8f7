import 'server-only';

/** Why a request was turned away: how long until the caller may try again. */
export interface RateLimited {
  ok: false;
  retryAfterSeconds: number;
}

/** Settings of one limiter: a bucket of `capacity` tokens per key, refilled at `refillPerSecond`. */
export interface RateLimitOptions {
  capacity: number;
  refillPerSecond: number;
  /** Most keys remembered; the least recently used is forgotten first (a forgotten key starts full again). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets keyed by caller (a user name, a client address): a burst of `capacity`, then `refillPerSecond`.
 * Bounded: at most `maxKeys` buckets, evicted one at a time by least recent use, never cleared whole.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxKeys: number;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (!(options.capacity >= 1) || !(options.refillPerSecond > 0)) {
      throw new RangeError('a rate limit needs capacity ≥ 1 and a positive refill rate');
    }
    this.maxKeys = options.maxKeys ?? 10_000;
  }

  /** Takes `cost` tokens for `key`, or says how many whole seconds until that many are there. */
  take(key: string, cost = 1): { ok: true } | RateLimited {
    const now = this.now();
    const { capacity, refillPerSecond } = this.options;
    const previous = this.buckets.get(key);
    const elapsed = previous ? Math.max(0, now - previous.at) / 1_000 : 0;
    const tokens = previous ? Math.min(capacity, previous.tokens + elapsed * refillPerSecond) : capacity;
    this.buckets.delete(key);
    if (tokens >= cost) {
      this.remember(key, { tokens: tokens - cost, at: now });
      return { ok: true };
    }
    this.remember(key, { tokens, at: now });
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / refillPerSecond)) };
  }

  /** Whether `take(key, cost)` would succeed now, taking nothing (a refusal says how long to wait). */
  peek(key: string, cost = 1): { ok: true } | RateLimited {
    const previous = this.buckets.get(key);
    if (!previous) return { ok: true };
    const { capacity, refillPerSecond } = this.options;
    const elapsed = Math.max(0, this.now() - previous.at) / 1_000;
    const tokens = Math.min(capacity, previous.tokens + elapsed * refillPerSecond);
    if (tokens >= cost) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((cost - tokens) / refillPerSecond)) };
  }

  /** Number of callers remembered (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private remember(key: string, bucket: Bucket): void {
    this.buckets.set(key, bucket);
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
  }
}
