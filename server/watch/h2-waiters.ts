import 'server-only';
import { KubeTransportError } from './kube-errors';
import type { H2Target } from './h2-connect';
import { GRANTS_PER_TURN } from './turn-budget';

interface Waiter<T> {
  target: H2Target;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Gave up waiting (its signal aborted). */
  gone?: boolean;
}

/**
 * Requests waiting for a stream slot, per origin, first come first served: {@link GRANTS_PER_TURN} are served per
 * event-loop turn, and `onNextTurn` is asked to serve the rest in the next one. Each opens its stream in the turn
 * that granted it, and a new session's queue at fleet scale is up to its 2,000 streams.
 */
export class StreamWaiters<T> {
  private readonly queues = new Map<string, Waiter<T>[]>();
  /** Origins whose waiters get the rest of their grants in the next event-loop turn. */
  private readonly deferred = new Set<string>();

  constructor(private readonly onNextTurn: (key: string) => void) {}

  /** True while requests to `key` wait: a new one queues behind them. */
  has(key: string): boolean {
    return this.queues.has(key);
  }

  /** Queues a request to `key`; its `signal` aborting takes it out of the line (rejected as aborted). */
  wait(key: string, target: H2Target, signal?: AbortSignal): Promise<T> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = { target, resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          this.drop(key, waiter);
          reject(new KubeTransportError('aborted', 'request aborted'));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      const queue = this.queues.get(key) ?? [];
      queue.push(waiter);
      this.queues.set(key, queue);
    });
  }

  /**
   * Serves the waiters of `key` in arrival order with what `take` gives, within the turn's grants; returns the target
   * of the first one left waiting because `take` gave nothing (a session to connect for it), else undefined.
   */
  serve(key: string, take: () => T | undefined): H2Target | undefined {
    const queue = this.queues.get(key);
    if (!queue) return undefined;
    let granted = 0;
    while (queue.length > 0) {
      if (queue[0].gone) {
        queue.shift();
        continue;
      }
      if (granted === GRANTS_PER_TURN) {
        this.nextTurn(key);
        return undefined;
      }
      const value = take();
      if (value === undefined) break;
      settle(queue.shift()!, value);
      granted += 1;
    }
    if (queue.length > 0) return queue[0].target;
    this.queues.delete(key);
    return undefined;
  }

  /** Gives every waiter of `key` the same answer (the server speaks HTTP/1.1). */
  settleAll(key: string, value: T): void {
    const queue = this.queues.get(key) ?? [];
    this.queues.delete(key);
    for (const waiter of queue) if (!waiter.gone) settle(waiter, value);
  }

  /** Fails every waiter of `key` (or of every origin) with `error`. */
  failAll(error: Error, key?: string): void {
    for (const origin of key === undefined ? [...this.queues.keys()] : [key]) {
      const queue = this.queues.get(origin) ?? [];
      this.queues.delete(origin);
      for (const waiter of queue) {
        if (waiter.gone) continue;
        if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
        waiter.reject(error);
      }
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

  /** Leaves the waiter in the queue, marked: thousands giving up at once must not each search it. */
  private drop(key: string, waiter: Waiter<T>): void {
    waiter.gone = true;
    const queue = this.queues.get(key);
    while (queue?.[0]?.gone) queue.shift();
    if (queue?.length === 0) this.queues.delete(key);
  }
}

function settle<T>(waiter: Waiter<T>, value: T): void {
  if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
  waiter.resolve(value);
}
