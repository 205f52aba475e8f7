import 'server-only';
import type { IncidentRepository } from './incident-repository';

const DAY_MS = 24 * 60 * 60 * 1_000;

/** Settings of {@link startIncidentRetention}. */
export interface RetentionOptions {
  /** Incidents older than this many days are deleted. */
  maxAgeDays: number;
  /** Real milliseconds between runs (default one hour). */
  everyMs?: number;
  now?: () => number;
  /** Told of each run's outcome (default: a line on stderr when something was deleted or a run failed). */
  report?: (outcome: { deleted: number } | { error: unknown }) => void;
}

/** A running retention: its runs so far and how to stop it. */
export interface Retention {
  /** Settles after the next run completes (the first run starts at once). */
  nextRun(): Promise<void>;
  stop(): void;
}

function defaultReport(outcome: { deleted: number } | { error: unknown }): void {
  if ('error' in outcome) console.warn(`[incidents] retention run failed: ${String(outcome.error)}`);
  else if (outcome.deleted > 0) console.warn(`[incidents] retention deleted ${outcome.deleted} expired incident(s)`);
}

/**
 * Deletes incidents older than `maxAgeDays` now (at start) and then every `everyMs`, on a timer that does not keep
 * the process alive. Runs never overlap; a failed run is reported and the next one tries again.
 */
export function startIncidentRetention(repository: IncidentRepository, options: RetentionOptions): Retention {
  const { maxAgeDays, everyMs = 60 * 60 * 1_000, now = Date.now, report = defaultReport } = options;
  let waiters: (() => void)[] = [];
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const deleted = await repository.deleteOlderThan(new Date(now() - maxAgeDays * DAY_MS).toISOString());
      report({ deleted });
    } catch (error) {
      report({ error });
    } finally {
      running = false;
      const settled = waiters;
      waiters = [];
      for (const resolve of settled) resolve();
    }
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  void run();
  return {
    nextRun: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
      }),
    stop: () => clearInterval(timer),
  };
}
