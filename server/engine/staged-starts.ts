import 'server-only';

/** What staging needs of an engine. */
export interface Startable {
  start(): void;
  settled(): boolean;
}

/** Options of {@link StagedStarts}. */
export interface StagedStartsOptions {
  /** Engines in their first sync at once. Default 48. */
  concurrency?: number;
  /** How long one engine holds its place at most (a black-holed API server never settles). Default 10 s. */
  slotMs?: number;
  /** How often places are checked while engines wait. Default 100 ms. */
  checkMs?: number;
  now?: () => number;
}

/**
 * Starts a fleet's engines a few dozen at a time: each holds a place until its first sync settled (or `slotMs`
 * passed), then the next waiting engine starts. Started all at once, 500 clusters' first LISTs and evaluations
 * arrive together and the event loop's turns grow to seconds, so every request waits that long several times over;
 * staged, the same work comes in turns short enough to answer `GET /api/clusters` within a second. Waiting engines
 * are fleet members already: their rows say they are connecting.
 */
export class StagedStarts<E extends Startable> {
  private readonly waiting = new Set<E>();
  private readonly starting = new Map<E, number>();
  private timer: NodeJS.Timeout | undefined;
  private readonly concurrency: number;
  private readonly slotMs: number;
  private readonly checkMs: number;
  private readonly now: () => number;

  constructor(options: StagedStartsOptions = {}) {
    this.concurrency = options.concurrency ?? 48;
    this.slotMs = options.slotMs ?? 10_000;
    this.checkMs = options.checkMs ?? 100;
    this.now = options.now ?? Date.now;
  }

  /** Starts `engine` now if a place is free, else when one frees. */
  add(engine: E): void {
    this.waiting.add(engine);
    this.pump();
  }

  /** Forgets an engine (stopped before or while starting). */
  remove(engine: E): void {
    this.waiting.delete(engine);
    this.starting.delete(engine);
  }

  /** Engines not started yet. */
  get queued(): number {
    return this.waiting.size;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
    this.starting.clear();
  }

  private pump(): void {
    const now = this.now();
    for (const [engine, since] of this.starting) {
      if (engine.settled() || now - since >= this.slotMs) this.starting.delete(engine);
    }
    for (const engine of this.waiting) {
      if (this.starting.size >= this.concurrency) break;
      this.waiting.delete(engine);
      this.starting.set(engine, now);
      engine.start();
    }
    if (this.waiting.size > 0 && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, this.checkMs);
      this.timer.unref?.();
    }
  }
}
