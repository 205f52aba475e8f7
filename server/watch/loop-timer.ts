import 'server-only';

/** Lateness below this is ordinary timer jitter, not a blocked event loop. */
const LATE_SLACK_MS = 20;

/**
 * A deadline set on a peer (connect, PING, response headers, a body's silence): a timer that fires late because the
 * event loop was blocked re-arms for its lateness, so the time our own loop was busy is not counted against the peer
 * (whose answer may be sitting unread in the socket). The extension is at most `ms` again, so a peer that is really
 * gone is still declared so within twice the deadline however busy the loop stays. One object and one `Timeout` for
 * its whole life, however often it is pushed back: a fleet's open watches each hold one for hours.
 */
export class LoopTimer {
  private handle: NodeJS.Timeout | undefined;
  private due = 0;
  /** The delay `handle` was armed with: `ms`, or an extension for lateness. */
  private delay = 0;
  private extended = 0;

  constructor(
    private readonly fn: () => void,
    private readonly ms: number,
    private readonly unref = false,
  ) {
    this.arm(ms);
  }

  /** Restarts the full deadline from now (no-op once fired or cancelled). */
  refresh(): void {
    if (!this.handle) return;
    this.extended = 0;
    if (this.delay !== this.ms) {
      clearTimeout(this.handle);
      this.arm(this.ms);
      return;
    }
    this.due = performance.now() + this.ms;
    this.handle.refresh();
  }

  cancel(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
  }

  private arm(delay: number): void {
    this.due = performance.now() + delay;
    this.delay = delay;
    this.handle = setTimeout(fire, delay, this);
    if (this.unref) this.handle.unref();
  }

  /** @internal called by the timer */
  expire(): void {
    const late = performance.now() - this.due;
    if (late > LATE_SLACK_MS && this.extended < this.ms) {
      const more = Math.min(late, this.ms - this.extended);
      this.extended += more;
      this.arm(more);
      return;
    }
    this.handle = undefined;
    this.fn();
  }
}

function fire(timer: LoopTimer): void {
  timer.expire();
}

/** A {@link LoopTimer} that is only ever cancelled. Returns the cancel function. */
export function loopAwareTimeout(fn: () => void, ms: number, options: { unref?: boolean } = {}): () => void {
  const timer = new LoopTimer(fn, ms, options.unref);
  return () => timer.cancel();
}
