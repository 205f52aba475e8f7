import 'server-only';

/** Time one slice of evaluations may take before the event loop gets a turn. */
const SLICE_MS = 20;

/**
 * Runs the fleet's due health evaluations in slices of about {@link SLICE_MS}, each slice a macrotask of its own, so
 * the event loop answers requests between slices. Without it, the coalescing timers of hundreds of clusters syncing
 * together expire in one timers phase and evaluate back to back: at 500 clusters the loop was blocked for over a
 * second at a time and `GET /api/clusters` waited seconds for its turns. A key queued twice runs once, in its first
 * place (first come, first evaluated).
 */
export class EvaluationPacer {
  private readonly queue = new Map<object, () => void>();
  private pending = false;

  constructor(
    private readonly sliceMs = SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `task` for `key` in a coming slice (once, however often asked before it runs). */
  run(key: object, task: () => void): void {
    if (!this.queue.has(key)) this.queue.set(key, task);
    this.schedule();
  }

  /** Drops what `key` had queued (a stopped engine). */
  cancel(key: object): void {
    this.queue.delete(key);
  }

  /** Tasks waiting for a slice. */
  get size(): number {
    return this.queue.size;
  }

  private schedule(): void {
    if (this.pending || this.queue.size === 0) return;
    this.pending = true;
    setImmediate(() => this.slice()).unref();
  }

  private slice(): void {
    this.pending = false;
    const started = this.now();
    try {
      for (const [key, task] of this.queue) {
        this.queue.delete(key);
        task();
        if (this.now() - started >= this.sliceMs) break;
      }
    } finally {
      this.schedule();
    }
  }
}

const holder = globalThis as unknown as { __updateHealthEvaluationPacer?: EvaluationPacer };

/** The process-wide pacer every cluster engine evaluates through. */
export function evaluationPacer(): EvaluationPacer {
  holder.__updateHealthEvaluationPacer ??= new EvaluationPacer();
  return holder.__updateHealthEvaluationPacer;
}
