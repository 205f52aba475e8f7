import 'server-only';

/**
 * During a cluster's first sync its ~20 sources answer at different moments, each a reason to run every detector on
 * a snapshot still incomplete: the first event is evaluated 5 ms after (the row shows the cluster), then source
 * changes wait for the always tier to settle, evaluated 5 ms after that, or for `boundMs` after start at the latest
 * (a source that never answers). A source that fails (refused, unreachable) says so with a `status` event as one that
 * syncs does with `synced`: every step of the first sync arrives as an event, and nothing needs to be looked for.
 * While thousands of clusters sync, a first sync takes seconds: evaluated at every step of it (every 500 ms before),
 * each cluster was evaluated five times, most of the dashboard's CPU.
 */
export const FIRST_SYNC = { boundMs: 5_000 } as const;

/** What {@link FirstSync} needs of its engine. */
export interface FirstSyncHost {
  /** The always tier synced or failed in a way only time or RBAC can fix. */
  alwaysSettled(): boolean;
  /** Every running source (the active tier too, when it runs) did. */
  allSettled(): boolean;
}

/**
 * A cluster engine's first sync: when a source change may be evaluated (`delayFor`), and who is told once it
 * settled (`onSettled`). The engine reports its evaluations (`evaluated`) and its source events (`delayFor`): no timer.
 */
export class FirstSync {
  /** Until when (epoch ms) source changes are coalesced; 0 once the always tier settled, or before `start`. */
  private until = 0;
  private running = false;
  /** When the last evaluation started (epoch ms); 0 before the first. */
  private evaluatedAt = 0;
  /** An evaluation ran (and decided the tier) since the always tier settled. */
  private decided = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly host: FirstSyncHost) {}

  start(): void {
    this.running = true;
    this.until = Date.now() + FIRST_SYNC.boundMs;
  }

  stop(): void {
    this.running = false;
    this.listeners.clear();
  }

  /**
   * The delay a source change asking for `delayMs` gets: after the first evaluation, none until the first sync
   * settled or its bound passed. Only a source's status (synced, refused, unreachable) can settle the first sync: an
   * object change (`status` false, most of a first sync's thousands of events) does not look at every source again.
   */
  delayFor(delayMs: number, status = true): number {
    const settled = status ? this.settle() : this.until === 0;
    const coalescing = !settled && Date.now() < this.until;
    if (status) this.tell();
    if (!coalescing || this.evaluatedAt === 0) return delayMs;
    return Math.max(delayMs, this.until - Date.now());
  }

  /** An evaluation starts. */
  evaluating(): void {
    this.evaluatedAt = Date.now();
  }

  /** An evaluation ended: it saw the sources as they are now, and decided the tier on them. */
  evaluated(): void {
    if (this.settle()) this.decided = true;
    this.tell();
  }

  /**
   * Calls `listener` once the first sync settled, or at once if it has; returns the function that cancels it.
   * Settled: the always tier synced or failed in a way only time or RBAC can fix, the evaluation after it decided
   * the tier, and the active tier it may have started settled too (what a staged start waits for).
   */
  onSettled(listener: () => void): () => void {
    if (this.isSettled()) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** True once the always tier's first sync settled: it stays so, however its sources fare later. */
  alwaysSettled(): boolean {
    return this.running && this.until === 0;
  }

  /** True while running with the first sync settled (see {@link onSettled}). */
  isSettled(): boolean {
    return this.running && this.settled();
  }

  private settled(): boolean {
    return this.until === 0 && this.decided && this.host.allSettled();
  }

  private tell(): void {
    if (this.listeners.size === 0 || !this.running || !this.settled()) return;
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }

  /** True once the always tier's first sync settled (the coalescing ends then). */
  private settle(): boolean {
    if (this.until === 0) return true;
    if (!this.host.alwaysSettled()) return false;
    this.until = 0;
    this.decided = false;
    return true;
  }
}
