import 'server-only';
import { RateLimiter, type RateLimited } from '@/server/http/rate-limit';
import { MAX_CONCURRENT_ANALYSES } from './limits';

/** Analyses a user may start in a burst, then one per {@link ANALYSIS_REFILL_SECONDS}. */
export const ANALYSIS_BURST = 6;
export const ANALYSIS_REFILL_SECONDS = 300;
/** What a refused caller is told to wait when analyses are running (a typical must-gather takes seconds). */
const BUSY_RETRY_SECONDS = 15;

/** Why an analysis may not start now, for a 429 with Retry-After. */
export interface AnalysisRefused extends RateLimited {
  message: string;
}

/** A granted slot; `release` ends it (idempotent). */
export interface AnalysisSlot {
  ok: true;
  release: () => void;
}

/**
 * Who may start an analysis now: one at a time per user, at most `maxRunning` at once in all, and per user a token
 * bucket of starts, so that neither one user nor many can tie up the workers' memory and CPU.
 */
export class AnalysisAdmission {
  private readonly running = new Set<string>();
  private readonly starts: RateLimiter;

  constructor(
    private readonly maxRunning = MAX_CONCURRENT_ANALYSES,
    rate = { capacity: ANALYSIS_BURST, refillPerSecond: 1 / ANALYSIS_REFILL_SECONDS },
    now: () => number = Date.now,
  ) {
    this.starts = new RateLimiter({ ...rate, maxKeys: 10_000 }, now);
  }

  /**
   * A slot for `user` (a user name, or one key for the local operator), or why not; `limitStarts` false skips the
   * start rate (the local operator's own machine), never the concurrency bounds.
   */
  enter(user: string, limitStarts = true): AnalysisSlot | AnalysisRefused {
    const refused = this.check(user, limitStarts);
    if (refused) return refused;
    if (limitStarts) this.starts.take(user);
    this.running.add(user);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.running.delete(user);
      },
    };
  }

  /**
   * Why `enter` would refuse `user` now, or undefined; takes nothing. Lets an upload be refused before its body is
   * read (server/offline/upload-guard.ts); `enter` decides again when the analysis starts.
   */
  check(user: string, limitStarts = true): AnalysisRefused | undefined {
    if (this.running.has(user)) {
      const message = 'an analysis of yours is still running; wait for it to finish';
      return { ok: false, retryAfterSeconds: BUSY_RETRY_SECONDS, message };
    }
    if (this.running.size >= this.maxRunning) {
      const message = `the server is analyzing ${this.maxRunning} must-gathers already; try again shortly`;
      return { ok: false, retryAfterSeconds: BUSY_RETRY_SECONDS, message };
    }
    const starts = limitStarts ? this.starts.peek(user) : { ok: true as const };
    if (!starts.ok) return { ...starts, message: 'too many must-gather analyses started; try again later' };
    return undefined;
  }

  /** Analyses running now. */
  get size(): number {
    return this.running.size;
  }
}

const holder = globalThis as unknown as { __updateHealthAnalysisAdmission?: AnalysisAdmission };

/** The process-wide admission (shared by every route, and across dev hot reloads). */
export function analysisAdmission(): AnalysisAdmission {
  holder.__updateHealthAnalysisAdmission ??= new AnalysisAdmission();
  return holder.__updateHealthAnalysisAdmission;
}
