import 'server-only';

/**
 * The cluster's idea of "now", estimated from the `Date` header of API responses. Detectors compare object
 * timestamps (written by the cluster's clock) with now, so a skewed local clock — or the embedded cluster's
 * virtual clock running faster than real time — must not distort ages and durations.
 */
export class ClusterClock {
  private anchorServer: number | undefined;
  private anchorLocal = 0;
  private windowServer: number | undefined;
  private windowLocal = 0;
  private rate = 1;
  private last = -Infinity;

  constructor(private readonly localNow: () => number = Date.now) {}

  /** Records a response's `Date` header (1 s resolution) received at local time `localMs`. */
  observe(dateHeader: string | undefined, localMs = this.localNow()): void {
    const serverMs = dateHeader ? Date.parse(dateHeader) : NaN;
    if (!Number.isFinite(serverMs)) return;
    if (this.windowServer === undefined) {
      // Answers given before the cluster spoke were local guesses; the cluster's clock supersedes them.
      this.last = -Infinity;
      this.windowServer = serverMs;
      this.windowLocal = localMs;
    } else if (localMs - this.windowLocal >= 5_000) {
      // A rate estimated over ≥ 5 s keeps the 1 s header resolution from dominating.
      const measured = (serverMs - this.windowServer) / (localMs - this.windowLocal);
      this.rate = Math.min(1_000, Math.max(0, Math.abs(measured - 1) < 0.25 ? 1 : measured));
      this.windowServer = serverMs;
      this.windowLocal = localMs;
    }
    // The header truncates to whole seconds: only move the anchor when it is ahead of the estimate.
    if (this.anchorServer === undefined || serverMs > this.now(localMs)) {
      this.anchorServer = serverMs;
      this.anchorLocal = localMs;
    }
  }

  /** Estimated cluster time in whole epoch ms; never goes backwards. Local time until a header was seen. */
  now(localMs = this.localNow()): number {
    const estimate = this.anchorServer === undefined ? localMs : this.anchorServer + (localMs - this.anchorLocal) * this.rate;
    // A measured rate is fractional; times leave through APIs (and come back, e.g. an incident's window) as integers.
    this.last = Math.max(this.last, Math.floor(estimate));
    return this.last;
  }
}
