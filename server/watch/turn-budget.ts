import 'server-only';
import { WaitLine } from './wait-line';

/**
 * Streams a pool grants per event-loop turn. Opening a stream costs a fraction of a millisecond; thousands opened in
 * one turn (watches retrying together after a Retry-After, a lost session's streams, engines starting as others'
 * first syncs settle) held the event loop for up to a second while a 3,500-cluster fleet synced, and every request
 * to the dashboard waited that long.
 */
export const GRANTS_PER_TURN = 64;

/**
 * A budget of grants per event-loop turn: {@link tryTake} takes one of this turn's, and {@link wait} waits for one of
 * a coming turn, first come first served. The budget is renewed in the check phase (`setImmediate`), after the turn's
 * I/O was polled, so the grants of two renewals always have the event loop's I/O between them. Nothing is armed
 * while nobody asks.
 */
export class TurnBudget {
  private left: number;
  private armed = false;
  private readonly line = new WaitLine<void>();

  constructor(private readonly perTurn: number = GRANTS_PER_TURN) {
    this.left = perTurn;
  }

  /** True when {@link tryTake} would take a grant now (one is left, and nobody waits for theirs). */
  canTake(): boolean {
    return this.left > 0 && this.line.size === 0;
  }

  /** Takes one of this turn's grants; false when none is left, or earlier callers are still waiting for theirs. */
  tryTake(): boolean {
    if (!this.canTake()) return false;
    this.left -= 1;
    this.arm();
    return true;
  }

  /** Resolves when a coming turn grants this caller one, in order of asking; `signal` gives up waiting. */
  wait(signal?: AbortSignal): Promise<void> {
    const granted = this.line.wait(undefined, signal);
    this.arm();
    return granted;
  }

  /** Refuses every caller still waiting (the pool closed). */
  close(error: Error): void {
    this.line.failAll(error);
  }

  private arm(): void {
    if (this.armed) return;
    this.armed = true;
    setImmediate(() => this.renew());
  }

  private renew(): void {
    this.armed = false;
    this.left = this.perTurn;
    while (this.left > 0 && this.line.serve(undefined)) this.left -= 1;
    // the grants just given are spent in this turn: the next renewal comes in the next one
    if (this.left < this.perTurn || this.line.size > 0) this.arm();
  }
}
