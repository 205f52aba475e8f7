import 'server-only';
import type { H2Target } from './h2-connect';
import { TurnBudget } from './turn-budget';
import { WaitLine } from './wait-line';

/**
 * Requests waiting for a stream slot, per origin, first come first served: a {@link TurnBudget}'s share is served per
 * event-loop turn over every origin and every call to `serve`, and `onNextTurn` is asked to serve the rest in the
 * next one. Each opens its stream in the turn that granted it, and a new session's queue at fleet scale is up to its
 * 2,000 streams. The share is the turn's, not the call's: every stream that ends hands its slot on with a `serve`,
 * and while a new session's free slots were handed out, the lists ending in one read granted 64 each, thousands of
 * streams opened in one turn.
 */
export class StreamWaiters<T> {
  private readonly lines = new Map<string, WaitLine<T, H2Target>>();
  /** Origins whose waiters get the rest of their grants in the next event-loop turn. */
  private readonly deferred = new Set<string>();
  private readonly turns = new TurnBudget();

  constructor(private readonly onNextTurn: (key: string) => void) {}

  /** True while requests to `key` wait: a new one queues behind them. */
  has(key: string): boolean {
    return (this.lines.get(key)?.size ?? 0) > 0;
  }

  /** Queues a request to `key`; its `signal` aborting takes it out of the line (rejected as aborted). */
  wait(key: string, target: H2Target, signal?: AbortSignal): Promise<T> {
    let line = this.lines.get(key);
    if (!line) this.lines.set(key, (line = new WaitLine<T, H2Target>()));
    return line.wait(target, signal);
  }

  /**
   * Serves the waiters of `key` in arrival order with what `take` gives, within the turn's grants; returns the target
   * of the first one left waiting because `take` gave nothing (a session to connect for it), else undefined.
   */
  serve(key: string, take: () => T | undefined): H2Target | undefined {
    const line = this.lines.get(key);
    if (!line) return undefined;
    while (line.size > 0) {
      if (!this.turns.canTake()) {
        this.nextTurn(key);
        return undefined;
      }
      const value = take();
      if (value === undefined) return line.peek();
      this.turns.tryTake();
      line.serve(value);
    }
    this.lines.delete(key);
    return undefined;
  }

  /** Gives every waiter of `key` the same answer (the server speaks HTTP/1.1). */
  settleAll(key: string, value: T): void {
    const line = this.lines.get(key);
    this.lines.delete(key);
    while (line?.serve(value));
  }

  /** Fails every waiter of `key` (or of every origin) with `error`. */
  failAll(error: Error, key?: string): void {
    for (const origin of key === undefined ? [...this.lines.keys()] : [key]) {
      this.lines.get(origin)?.failAll(error);
      this.lines.delete(origin);
    }
  }

  private nextTurn(key: string): void {
    if (this.deferred.has(key)) return;
    this.deferred.add(key);
    setImmediate(() => {
      this.deferred.delete(key);
      this.onNextTurn(key);
    });
  }
}
