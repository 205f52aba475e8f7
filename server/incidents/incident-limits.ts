import 'server-only';
import { incidentEnv } from '@/server/env';
import { RateLimiter } from '@/server/http/rate-limit';
import type { IncidentRepository } from './incident-repository';

const DAY_MS = 24 * 60 * 60 * 1_000;

/** The limits on incident creation, per user (README "Incidents"). */
export interface IncidentLimitSettings {
  /** Incidents one user may create at once, then `perHour` refill the allowance. */
  burst: number;
  perHour: number;
  /** What one user may store over any 24 hours. */
  dailyCount: number;
  dailyBytes: number;
  /** Largest single incident (its JSON, bytes). */
  maxBytes: number;
}

/** Why an incident was not created: too many too fast, the user's daily quota, or one incident too large. */
export type IncidentLimitCode = 'rate_limited' | 'daily_quota' | 'incident_too_large';

/** An incident refused by a limit; routes answer it with 429 (Retry-After) or 413, never 500. */
export class IncidentLimitError extends Error {
  constructor(
    readonly code: IncidentLimitCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'IncidentLimitError';
  }
}

/** Whether `error` is an {@link IncidentLimitError} (by name: route bundles may hold their own copy of the class). */
export function isIncidentLimitError(error: unknown): error is IncidentLimitError {
  return error instanceof Error && error.name === 'IncidentLimitError';
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** `Retry-After` in words, for the message the page shows (it does not see headers). */
function after(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.ceil(seconds / 60)} min`;
  return `${Math.ceil(seconds / 3_600)} h`;
}

/**
 * The checks of incident creation, in the order they cost: the per-user token bucket before any work, then (once the
 * incident is built) its size and the user's stored total over the last 24 hours. The quota is read from the
 * repository, so it holds across restarts and replicas; two replicas racing may each admit the last one.
 */
export class IncidentLimits {
  private readonly limiter: RateLimiter;

  constructor(
    readonly settings: IncidentLimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.limiter = new RateLimiter({ capacity: settings.burst, refillPerSecond: settings.perHour / 3_600 }, now);
  }

  /** Takes one creation from `user`'s allowance (`null`: without a user identity) or throws `rate_limited`. */
  admit(user: string | null): void {
    const taken = this.limiter.take(user ?? '\u0000local');
    if (!taken.ok) {
      throw new IncidentLimitError(
        'rate_limited',
        `too many incidents created; at most ${this.settings.burst} at once and ${this.settings.perHour} an hour; ` +
          `try again in ${after(taken.retryAfterSeconds)}`,
        taken.retryAfterSeconds,
      );
    }
  }

  /** Refuses an incident of `bytes` larger than the maximum, or one that would take `user` over the daily quota. */
  async checkStore(user: string | null, bytes: number, repository: IncidentRepository): Promise<void> {
    const { maxBytes, dailyCount, dailyBytes } = this.settings;
    if (bytes > maxBytes) {
      throw new IncidentLimitError(
        'incident_too_large',
        `the incident would be ${mib(bytes)}, over the ${mib(maxBytes)} limit; freeze a shorter chart window`,
      );
    }
    const now = this.now();
    const usage = await repository.usageSince(user, new Date(now - DAY_MS).toISOString());
    if (usage.count + 1 > dailyCount || usage.bytes + bytes > dailyBytes) {
      const oldest = usage.oldest ? Date.parse(usage.oldest) : now;
      const retry = Math.max(1, Math.ceil((oldest + DAY_MS - now) / 1_000));
      throw new IncidentLimitError(
        'daily_quota',
        `daily incident quota reached (${usage.count} incidents, ${mib(usage.bytes)} in 24 hours; ` +
          `at most ${dailyCount} and ${mib(dailyBytes)}); try again in ${after(retry)}`,
        retry,
      );
    }
  }
}

const holder = globalThis as unknown as { __updateHealthIncidentLimits?: IncidentLimits };

/** The process-wide limits, from `UPDATE_HEALTH_INCIDENT_*` (server/env.ts). */
export function incidentLimits(): IncidentLimits {
  if (!holder.__updateHealthIncidentLimits) {
    const env = incidentEnv();
    holder.__updateHealthIncidentLimits = new IncidentLimits({
      burst: env.UPDATE_HEALTH_INCIDENT_BURST,
      perHour: env.UPDATE_HEALTH_INCIDENTS_PER_HOUR,
      dailyCount: env.UPDATE_HEALTH_INCIDENT_DAILY_COUNT,
      dailyBytes: env.UPDATE_HEALTH_INCIDENT_DAILY_BYTES,
      maxBytes: env.UPDATE_HEALTH_INCIDENT_MAX_BYTES,
    });
  }
  return holder.__updateHealthIncidentLimits;
}
