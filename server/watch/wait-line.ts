import 'server-only';
import { KubeTransportError } from './kube-errors';

interface Entry<V, W> {
  data: W;
  resolve: (value: V) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Gave up waiting (its signal aborted). */
  gone?: boolean;
}

/**
 * Requests waiting their turn, first come first served, each with its own `signal` to give up: the one queue behind
 * a session pool's stream slots, its per-turn admission and a reconnect window. A request that gives up is refused
 * as aborted and only marked: thousands giving up at once must not each search the line.
 */
export class WaitLine<V, W = undefined> {
  /** Entries from `head` on are in line; those before it were served or gave up. */
  private queue: (Entry<V, W> | undefined)[] = [];
  private head = 0;
  private live = 0;

  /** Requests still waiting. */
  get size(): number {
    return this.live;
  }

  /** Waits behind those already in line, carrying `data` for whoever serves it. */
  wait(data: W, signal?: AbortSignal): Promise<V> {
    if (signal?.aborted) return Promise.reject(new KubeTransportError('aborted', 'request aborted'));
    return new Promise((resolve, reject) => {
      const entry: Entry<V, W> = { data, resolve, reject, signal };
      if (signal) {
        entry.onAbort = () => {
          entry.gone = true;
          this.live -= 1;
          this.dropGone();
          reject(new KubeTransportError('aborted', 'request aborted'));
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
      this.live += 1;
    });
  }

  /** The data of the first request still waiting, left in line. */
  peek(): W | undefined {
    this.dropGone();
    return this.queue[this.head]?.data;
  }

  /** Takes the first request still waiting out of line and answers it with `value`; false when none waits. */
  serve(value: V): boolean {
    this.dropGone();
    const entry = this.queue[this.head];
    if (!entry) return false;
    this.advance();
    this.leave(entry);
    entry.resolve(value);
    return true;
  }

  /** Refuses every request still waiting. */
  failAll(error: Error): void {
    const entries = this.queue.slice(this.head);
    this.queue = [];
    this.head = 0;
    for (const entry of entries) {
      if (!entry || entry.gone) continue;
      this.leave(entry);
      entry.reject(error);
    }
  }

  private leave(entry: Entry<V, W>): void {
    this.live -= 1;
    if (entry.onAbort) entry.signal?.removeEventListener('abort', entry.onAbort);
  }

  private dropGone(): void {
    while (this.queue[this.head]?.gone) this.advance();
  }

  /**
   * Steps past the first entry. `shift` would move every entry behind it: a line of tens of thousands of watches
   * (a fleet's sync behind one cluster-proxy) lives in V8's large-object space, where each shift copies the whole
   * array. The served part is cut off once it is the larger half.
   */
  private advance(): void {
    this.queue[this.head] = undefined;
    this.head += 1;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
