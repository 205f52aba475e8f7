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
  /** What is deleted, for the default report (default `incidents`). */
  what?: string;
}

/** A running retention: its runs so far and how to stop it. */
export interface Retention {
  /** Settles after the next run completes (the first run starts at once). */
  nextRun(): Promise<void>;
  stop(): void;
}

function defaultReport(what: string): (outcome: { deleted: number } | { error: unknown }) => void {
  return (outcome) => {
    if ('error' in outcome) console.warn(`[${what}] retention run failed: ${String(outcome.error)}`);
    else if (outcome.deleted > 0) console.warn(`[${what}] retention deleted ${outcome.deleted} expired row(s)`);
  };
}

/**
 * Deletes what is older than `maxAgeDays` now (at start) and then every `everyMs`, on a timer that does not keep the
 * process alive: incidents, and the finding history. Runs never overlap; a failed run is reported and the next one
 * tries again.
 */
export function startIncidentRetention(
  repository: Pick<IncidentRepository, 'deleteOlderThan'>,
  options: RetentionOptions,
): Retention {
  const { maxAgeDays, everyMs = 60 * 60 * 1_000, now = Date.now, what = 'incidents' } = options;
  const report = options.report ?? defaultReport(what);
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
