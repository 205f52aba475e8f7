import 'server-only';

const WINDOW_MS = 5_000;
const MAX_RATE = 1_000;

/**
 * The cluster's idea of "now", estimated from the `Date` header of API responses. Detectors compare object
 * timestamps (written by the cluster's clock) with now, so a skewed local clock — or the embedded cluster's
 * virtual clock running faster than real time, or jumping ahead — must not distort ages and durations.
 *
 * The estimate extrapolates from the latest header at a learnt rate. A rate is adopted only when two consecutive
 * 5 s windows agree, so a one-off jump re-anchors the estimate without being mistaken for a faster clock.
 */
export class ClusterClock {
  private anchorServer: number | undefined;
  private anchorLocal = 0;
  private windowServer: number | undefined;
  private windowLocal = 0;
  private lastMeasured: number | undefined;
  private rate = 1;
  private last = -Infinity;

  constructor(private readonly localNow: () => number = Date.now) {}

  /** Records a response's `Date` header (1 s resolution) received at local time `localMs`. */
  observe(dateHeader: string | undefined, localMs = this.localNow()): void {
    const serverMs = dateHeader ? Date.parse(dateHeader) : NaN;
    if (!Number.isFinite(serverMs)) return;
    if (this.anchorServer === undefined || this.windowServer === undefined) {
      // Answers given before the cluster spoke were local guesses; the cluster's clock supersedes them.
      this.last = -Infinity;
      this.anchor(serverMs, localMs);
      this.windowServer = serverMs;
      this.windowLocal = localMs;
      return;
    }
    if (localMs - this.windowLocal >= WINDOW_MS) {
      const measured = Math.max(0, (serverMs - this.windowServer) / (localMs - this.windowLocal));
      if (
        this.lastMeasured !== undefined &&
        Math.abs(measured - this.lastMeasured) <= 0.2 * Math.max(this.lastMeasured, 0.05)
      ) {
        this.rate = Math.abs(measured - 1) < 0.25 ? 1 : Math.min(MAX_RATE, measured);
      }
      this.lastMeasured = measured;
      this.windowServer = serverMs;
      this.windowLocal = localMs;
    }
    // Headers truncate to whole seconds: re-anchor when the server is ahead of the estimate (a jump, or our rate
    // is low) or clearly behind it (our rate is high); small negative errors are truncation.
    const error = serverMs - this.estimate(localMs);
    if (error > 0 || error < -2_000 * Math.max(1, this.rate)) this.anchor(serverMs, localMs);
  }

  /** Estimated cluster time in whole epoch ms; never goes backwards. Local time until a header was seen. */
  now(localMs = this.localNow()): number {
    // A measured rate is fractional; times leave through APIs (and come back, e.g. an incident's window) as integers.
    this.last = Math.max(this.last, Math.floor(this.estimate(localMs)));
    return this.last;
  }

  /** True once a response's `Date` header was seen: before that, {@link now} is the local clock's guess. */
  heard(): boolean {
    return this.anchorServer !== undefined;
  }

  /** How often the owner should make a cheap request to refresh the estimate: often while the clock is not real time. */
  probeIntervalMs(): number {
    return this.rate === 1 && (this.lastMeasured === undefined || Math.abs(this.lastMeasured - 1) < 0.25)
      ? 30_000
      : 2_000;
  }

  private estimate(localMs: number): number {
    return this.anchorServer === undefined ? localMs : this.anchorServer + (localMs - this.anchorLocal) * this.rate;
  }

  private anchor(serverMs: number, localMs: number): void {
    this.anchorServer = serverMs;
    this.anchorLocal = localMs;
  }
}
