import 'server-only';

/** Time, timers and randomness the reflector uses, injectable so tests can make jitter deterministic. */
export interface ReflectorClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `fn` after `delayMs`; returns a cancel function. */
  setTimeout(fn: () => void, delayMs: number): () => void;
  /** A number in [0, 1). */
  random(): number;
}

/** The real clock: `Date.now`, `setTimeout` (unref'd, so a stopped process can exit) and `Math.random`. */
export const systemClock: ReflectorClock = {
  now: () => Date.now(),
  setTimeout: (fn, delayMs) => {
    const handle = setTimeout(fn, delayMs);
    handle.unref?.();
    return () => clearTimeout(handle);
  },
  random: () => Math.random(),
};

/** Parameters of the exponential backoff (client-go's reflector defaults). */
export interface BackoffOptions {
  /** First delay. Default 800 ms. */
  initialMs?: number;
  /** Upper bound of any delay. Default 30 s. */
  maxMs?: number;
  /** Growth per consecutive failure. Default 2. */
  factor?: number;
  /** Fraction of each delay that is randomised downwards, in [0, 1]. Default 0.5. */
  jitter?: number;
  /** A failure after this long without one starts over at `initialMs`. Default 2 min. */
  resetAfterMs?: number;
}

/** The cap of a backoff with these options. */
export function backoffMaxMs(options: BackoffOptions = {}): number {
  return options.maxMs ?? 30_000;
}

/**
 * Capped, jittered exponential backoff. Jitter only shortens a delay, so the cap is never exceeded yet callers
 * failing at the same moment (an API server restart) spread out instead of retrying in lockstep.
 */
export class Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  private readonly factor: number;
  private readonly jitter: number;
  private readonly resetAfterMs: number;
  private current: number;
  private lastFailureAt: number | undefined;

  constructor(
    private readonly clock: ReflectorClock,
    options: BackoffOptions = {},
  ) {
    this.initialMs = options.initialMs ?? 800;
    this.maxMs = backoffMaxMs(options);
    this.factor = options.factor ?? 2;
    this.jitter = Math.min(1, Math.max(0, options.jitter ?? 0.5));
    this.resetAfterMs = options.resetAfterMs ?? 120_000;
    this.current = this.initialMs;
  }

  /** Records a failure and returns how long to wait before the next attempt. */
  next(): number {
    const now = this.clock.now();
    if (this.lastFailureAt !== undefined && now - this.lastFailureAt >= this.resetAfterMs)
      this.current = this.initialMs;
    this.lastFailureAt = now;
    const base = Math.min(this.current, this.maxMs);
    this.current = Math.min(this.maxMs, this.current * this.factor);
    return this.spread(base);
  }

  /** A delay near the cap, for failures that retrying soon cannot fix (403, repeated 401). */
  slow(): number {
    this.lastFailureAt = this.clock.now();
    this.current = this.maxMs;
    return this.spread(this.maxMs);
  }

  /** `ms` shortened by up to `jitter` of itself. */
  spread(ms: number): number {
    return Math.round(ms * (1 - this.jitter * this.clock.random()));
  }
}
