import type { VirtualClock } from './types';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
  /** Set for intervals: the period to reschedule with. */
  every?: number;
  cancelled: boolean;
}

/**
 * A virtual clock driven by explicit `advance` calls. Timers fire in order of due time, ties in order of
 * scheduling; timers scheduled while advancing that fall inside the window fire in the same call.
 */
export class ManualClock implements VirtualClock {
  private current: number;
  private seq = 0;
  private timers: Timer[] = [];
  private advancing = false;

  constructor(startTime: number) {
    this.current = startTime;
  }

  /** Current virtual time, epoch milliseconds. */
  now(): number {
    return this.current;
  }

  /** Runs `fn` once at `now() + delayMs` (virtual). Returns a cancel function. */
  setTimeout(fn: () => void, delayMs: number): () => void {
    const timer = this.schedule({ at: this.current + Math.max(0, delayMs), fn, cancelled: false });
    return () => this.cancel(timer);
  }

  /** Runs `fn` every `intervalMs` of virtual time. Returns a cancel function. */
  setInterval(fn: () => void, intervalMs: number): () => void {
    const every = Math.max(1, intervalMs);
    const timer = this.schedule({ at: this.current + every, fn, every, cancelled: false });
    return () => this.cancel(timer);
  }

  /** Number of pending timers (for tests and stats). */
  pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves virtual time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    if (ms < 0 || !Number.isFinite(ms)) throw new RangeError(`cannot advance the clock by ${ms} ms`);
    // A timer callback that advances the clock would reorder time; run it as part of the outer window instead.
    if (this.advancing) {
      this.current += ms;
      return;
    }
    const target = this.current + ms;
    this.advancing = true;
    try {
      for (;;) {
        const next = this.timers[0];
        if (!next || next.at > target) break;
        this.timers.shift();
        this.current = Math.max(this.current, next.at);
        if (next.every !== undefined) {
          next.at += next.every;
          next.seq = this.seq++;
          this.insert(next);
        }
        next.fn();
      }
      this.current = Math.max(this.current, target);
    } finally {
      this.advancing = false;
    }
  }

  private schedule(timer: Omit<Timer, 'seq'>): Timer {
    const full: Timer = { ...timer, seq: this.seq++ };
    this.insert(full);
    return full;
  }

  private insert(timer: Timer): void {
    let lo = 0;
    let hi = this.timers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = this.timers[mid];
      if (other.at < timer.at || (other.at === timer.at && other.seq < timer.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.timers.splice(lo, 0, timer);
  }

  private cancel(timer: Timer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    const index = this.timers.indexOf(timer);
    if (index >= 0) this.timers.splice(index, 1);
  }
}

/** Options of the real-time clock driver. */
export interface ClockDriverOptions {
  /** Virtual milliseconds per real millisecond (10 = ten times faster than real time). */
  speed: number;
  /** Real milliseconds between advances (default 100). */
  tickMs?: number;
}

/** Stops the driver when called; also pausable and re-tunable. */
export type ClockDriver = (() => void) & {
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  setSpeed(speed: number): void;
};

/** One timer advancing many clocks (a fleet's): one real-time interval however many clusters it drives. */
export interface SharedClockDriver {
  /**
   * Drives `clock` at `speed` from now on. The returned driver pauses, re-tunes and (called) stops this clock alone.
   */
  add(clock: VirtualClock, speed: number): ClockDriver;
  /** Clocks driven now. */
  size(): number;
  /** Stops the timer; no clock advances from then on. */
  stop(): void;
}

/**
 * Starts one real-time timer that, every `tickMs` (default 100), advances each added clock by its own
 * `speed` × the real time elapsed since its last advance. A fleet of thousands of clusters costs one timer, not
 * one each.
 */
export function startSharedClockDriver(options: { tickMs?: number } = {}): SharedClockDriver {
  const tickers = new Set<(now: number) => void>();
  const handle = setInterval(() => {
    const now = performance.now();
    for (const tick of tickers) tick(now);
  }, options.tickMs ?? 100);
  handle.unref?.();
  return {
    add: (clock, initialSpeed) => {
      let speed = initialSpeed;
      let paused = false;
      let last = performance.now();
      let carry = 0;
      const tick = (now: number) => {
        const elapsed = now - last;
        last = now;
        if (paused) return;
        const exact = elapsed * speed + carry;
        const whole = Math.floor(exact);
        carry = exact - whole;
        if (whole > 0) clock.advance(whole);
      };
      tickers.add(tick);
      const stop = (() => void tickers.delete(tick)) as ClockDriver;
      stop.pause = () => {
        tick(performance.now());
        paused = true;
      };
      stop.resume = () => {
        last = performance.now();
        paused = false;
      };
      stop.isPaused = () => paused;
      stop.setSpeed = (next: number) => {
        tick(performance.now());
        speed = next;
      };
      return stop;
    },
    size: () => tickers.size,
    stop: () => {
      clearInterval(handle);
      tickers.clear();
    },
  };
}

/**
 * Advances `clock` by `speed` × elapsed real time every `tickMs`. Calling the returned function stops it;
 * `pause()` freezes virtual time (real time passing while paused is not caught up on resume).
 */
export function startClockDriver(clock: VirtualClock, options: ClockDriverOptions): ClockDriver {
  const shared = startSharedClockDriver({ tickMs: options.tickMs });
  const driver = shared.add(clock, options.speed);
  const stop = (() => shared.stop()) as ClockDriver;
  return Object.assign(stop, {
    pause: driver.pause,
    resume: driver.resume,
    isPaused: driver.isPaused,
    setSpeed: driver.setSpeed,
  });
}
