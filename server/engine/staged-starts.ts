import 'server-only';

/** What staging needs of an engine. */
export interface Startable {
  start(): void;
  /** Calls `listener` once the engine's first sync settled (at once if it has); returns the cancelling function. */
  onFirstSync(listener: () => void): () => void;
}

/** Options of {@link StagedStarts}. */
export interface StagedStartsOptions {
  /**
   * Engines in their first sync at once. Default 24: at 3,500 clusters through a hub, 24 synced as fast as 48 (65 and
   * 69 s against 71–90 s) with shorter event-loop turns (`GET /api/clusters` p90 345–417 ms against 430–603 ms).
   */
  concurrency?: number;
  /** How long one engine holds its place at most (a black-holed API server never settles). Default 10 s. */
  slotMs?: number;
}

/** A started engine's place: freed when its first sync settles or its time is up. */
interface Place {
  cancel: () => void;
  giveUp: NodeJS.Timeout;
}

/**
 * Starts a fleet's engines a few dozen at a time: each holds a place until its first sync settled (or `slotMs`
 * passed), then the next waiting engine starts. Started all at once, 500 clusters' first LISTs and evaluations
 * arrive together and the event loop's turns grow to seconds, so every request waits that long several times over;
 * staged, the same work comes in turns short enough to answer `GET /api/clusters` within a second. Waiting engines
 * are fleet members already: their rows say they are connecting. Places are freed by the engines' own signal, not
 * by polling them.
 */
export class StagedStarts<E extends Startable> {
  private readonly waiting = new Set<E>();
  private readonly starting = new Map<E, Place>();
  private readonly concurrency: number;
  private readonly slotMs: number;
  private stopped = false;

  constructor(options: StagedStartsOptions = {}) {
    this.concurrency = options.concurrency ?? 24;
    this.slotMs = options.slotMs ?? 10_000;
  }

  /** Starts `engine` now if a place is free, else when one frees. */
  add(engine: E): void {
    if (this.stopped) return;
    this.waiting.add(engine);
    this.pump();
  }

  /** Forgets an engine (stopped before or while starting); its place, if it held one, goes to the next. */
  remove(engine: E): void {
    this.waiting.delete(engine);
    this.free(engine);
  }

  /** Engines not started yet. */
  get queued(): number {
    return this.waiting.size;
  }

  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    for (const place of this.starting.values()) {
      place.cancel();
      clearTimeout(place.giveUp);
    }
    this.starting.clear();
  }

  private free(engine: E): void {
    const place = this.starting.get(engine);
    if (!place) return;
    this.starting.delete(engine);
    place.cancel();
    clearTimeout(place.giveUp);
    this.pump();
  }

  private pump(): void {
    for (const engine of this.waiting) {
      if (this.stopped || this.starting.size >= this.concurrency) break;
      this.waiting.delete(engine);
      const giveUp = setTimeout(() => this.free(engine), this.slotMs);
      giveUp.unref?.();
      const place: Place = { cancel: () => undefined, giveUp };
      this.starting.set(engine, place);
      engine.start();
      // Registered after the start: an engine that settles at once frees its place right here.
      place.cancel = engine.onFirstSync(() => queueMicrotask(() => this.free(engine)));
    }
  }
}
