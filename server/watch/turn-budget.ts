import 'server-only';
import { KubeTransportError } from './kube-errors';

/**
 * Streams a pool grants per event-loop turn. Opening a stream costs a fraction of a millisecond; thousands opened in
 * one turn (watches retrying together after a Retry-After, a lost session's streams, engines starting as others'
 * first syncs settle) held the event loop for up to a second while a 3,500-cluster fleet synced, and every request
 * to the dashboard waited that long.
 */
export const GRANTS_PER_TURN = 64;

interface TurnWaiter {
  resolve: () => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Gave up waiting (its signal aborted). */
  gone?: boolean;
}

/**
 * A budget of grants per event-loop turn: {@link tryTake} takes one of this turn's, and {@link wait} waits for one of
 * a coming turn, first come first served. The budget is renewed in the check phase (`setImmediate`), after the turn's
 * I/O was polled, so the grants of two renewals always have the event loop's I/O between them. Nothing is armed
 * while nobody asks.
 */
export class TurnBudget {
  private left: number;
  private armed = false;
  private readonly queue: TurnWaiter[] = [];

  constructor(private readonly perTurn: number = GRANTS_PER_TURN) {
    this.left = perTurn;
  }

  /** Takes one of this turn's grants; false when none is left, or earlier callers are still waiting for theirs. */
  tryTake(): boolean {
    if (this.left === 0 || this.queue.length > 0) return false;
    this.left -= 1;
    this.arm();
    return true;
  }

  /** Resolves when a coming turn grants this caller one, in order of asking; `signal` gives up waiting. */
  wait(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new KubeTransportError('aborted', 'request aborted'));
    return new Promise((resolve, reject) => {
      const waiter: TurnWaiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          waiter.gone = true;
          while (this.queue[0]?.gone) this.queue.shift();
          reject(new KubeTransportError('aborted', 'request aborted'));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.arm();
    });
  }

  /** Refuses every caller still waiting (the pool closed). */
  close(error: Error): void {
    for (const waiter of this.queue.splice(0)) {
      if (waiter.gone) continue;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.reject(error);
    }
  }

  private arm(): void {
    if (this.armed) return;
    this.armed = true;
    setImmediate(() => this.renew());
  }

  private renew(): void {
    this.armed = false;
    this.left = this.perTurn;
    while (this.left > 0 && this.queue.length > 0) {
      const waiter = this.queue.shift()!;
      if (waiter.gone) continue;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.left -= 1;
      waiter.resolve();
    }
    // the grants just given are spent in this turn: the next renewal comes in the next one
    if (this.left < this.perTurn || this.queue.length > 0) this.arm();
  }
}
