import 'server-only';
import { WaitLine } from './wait-line';

/** What became of a reconnect sent through the window. */
export type ReconnectOutcome =
  | 'answered' // response headers that are not a refusal: the server keeps up
  | 'overloaded' // 429, or a 5xx: the server sheds load
  | 'lost' // no answer: within the window's retransmission timeout, or the stream or its session reset or refused
  | 'late' // relayed by a proxy, no answer from the server behind it within the retransmission timeout
  | 'withdrawn'; // given up on our side before it was sent, or taken over HTTP/1.1: says nothing of the server

/** An origin's reconnect window, as its `onChange` sees it. */
export interface ReconnectWindowState {
  /** Reconnects allowed in flight (sent, not yet answered with response headers). */
  size: number;
  inFlight: number;
  /** Reconnects waiting for a place. */
  waiting: number;
  /** What changed: a reconnect was sent, or one ended (and how). */
  event: 'sent' | ReconnectOutcome;
}

/** Tuning of the reconnect windows of a pool. */
export interface ReconnectWindowOptions {
  /** Reconnects allowed in flight when a loss starts, before any answer says more. Default 256. */
  initial?: number;
  /** Fewest reconnects allowed in flight however often the server refuses (at least 1). Default 16. */
  min?: number;
  /** Sees each change of a window (diagnostics, tests). */
  onChange?: (state: ReconnectWindowState) => void;
}

/** On an answer that refuses or a reconnect lost, the window keeps this share of itself. */
const DECREASE = 0.5;
/** Bounds of the wait for an answer after which a reconnect no longer holds its place (RFC 6298's RTO). */
const MIN_RTO_MS = 1_000;
const MAX_RTO_MS = 60_000;

/**
 * The reconnects to one origin after a session loss, paced like TCP congestion control rather than at a fixed rate:
 * a window of reconnect requests in flight (sent, not yet answered with response headers). Each stream lost with its
 * session owes a reconnect, and the origin's next requests, as many as are owed, wait for a place in the window. It
 * starts generous, grows by one per prompt answer (doubling per round trip, slow start) up to the threshold of its
 * last decrease and by one per round trip beyond it, and is halved, at most once per round trip, when the server
 * refuses (429, 5xx) or a reconnect is lost (reset, refused, or unanswered). Never above the session's stream limit,
 * never below `min`. With a server that answers fast, thousands of watches come back within a few round trips.
 *
 * A reconnect unanswered after the retransmission timeout (from the answer times seen, as TCP's) counts as lost and
 * gives up its place, its request still waiting for its own header deadline: behind a proxy, requests to a dead
 * cluster are never answered, and must not hold the window of every other cluster until they time out.
 *
 * Through a proxy to the servers behind it (an ACM hub's cluster-proxy, see {@link isRelayed}) a refusal, or no
 * answer in time, is that one server's: its watch honours the Retry-After, and the proxy, which relayed it, is not
 * the one to send fewer reconnects to. Those free their place without shrinking the window; a reset or a session
 * lost again still does.
 */
export class ReconnectWindow {
  private size: number;
  private threshold = Number.POSITIVE_INFINITY;
  private limit = Number.POSITIVE_INFINITY;
  /** Reconnects in flight, by ticket, oldest first: when sent (`performance.now()`), and whether relayed. */
  private readonly inFlight = new Map<number, { sentAt: number; relayed: boolean }>();
  private owed = 0;
  /** Smoothed answer time and its variation (RFC 6298), undefined before the first answer. */
  private srtt: number | undefined;
  private rttvar = 0;
  private rtoTimer: NodeJS.Timeout | undefined;
  /** Tickets handed out so far; a ticket is the number of the reconnect. */
  private sent = 0;
  /** The first ticket sent after the last decrease: only those can decrease the window again. */
  private decreasedAt = 0;
  /** Reconnects waiting for a place, each saying whether it is relayed. */
  private readonly line = new WaitLine<number, boolean>();
  private readonly initial: number;
  private readonly min: number;

  constructor(private readonly options: ReconnectWindowOptions = {}) {
    this.min = Math.max(1, Math.floor(options.min ?? 16));
    this.initial = Math.max(this.min, Math.floor(options.initial ?? 256));
    this.size = this.initial;
  }

  /** A stream was lost with its session: its retry owes a reconnect. */
  owe(): void {
    // a loss after a quiet spell starts from the generous window again, as TCP restarts after idle
    if (this.owed === 0 && this.inFlight.size === 0 && this.line.size === 0) {
      this.size = Math.min(this.initial, this.limit);
      this.threshold = Number.POSITIVE_INFINITY;
    }
    this.owed += 1;
  }

  /** True when a reconnect is owed, which the caller's request then is (it takes the debt). */
  claim(): boolean {
    if (this.owed === 0) return false;
    this.owed -= 1;
    return true;
  }

  /** The stream limit of the origin's sessions: the window never allows more in flight. */
  setLimit(limit: number): void {
    this.limit = Math.max(1, limit);
    this.size = Math.min(this.size, this.limit);
  }

  /**
   * Resolves with a ticket once the reconnect may be sent; `relayed` when it goes through a proxy to a server behind
   * it; `signal` gives up waiting.
   */
  enter(relayed: boolean, signal?: AbortSignal): Promise<number> {
    const ticket = this.line.wait(relayed, signal);
    this.pump();
    return ticket;
  }

  /** The reconnect of `ticket` ended its wait for an answer: its place goes to the next one. */
  leave(ticket: number, outcome: ReconnectOutcome): void {
    const sent = this.inFlight.get(ticket);
    // already counted as lost when its retransmission timeout passed
    if (sent === undefined) return;
    this.inFlight.delete(ticket);
    if (outcome === 'answered' || outcome === 'overloaded') this.sample(performance.now() - sent.sentAt);
    // a refusal relayed from a server behind a proxy is a prompt answer of the proxy
    const seen = outcome === 'overloaded' && sent.relayed ? 'answered' : outcome;
    this.adjust(ticket, seen);
    this.notify(seen);
    this.pump();
  }

  private adjust(ticket: number, outcome: ReconnectOutcome): void {
    if (outcome === 'answered') {
      this.size = Math.min(this.limit, this.size + (this.size < this.threshold ? 1 : 1 / this.size));
    } else if ((outcome === 'overloaded' || outcome === 'lost') && ticket >= this.decreasedAt) {
      this.size = Math.max(Math.min(this.min, this.limit), this.size * DECREASE);
      this.threshold = this.size;
      this.decreasedAt = this.sent;
    }
  }

  private sample(ms: number): void {
    if (this.srtt === undefined) {
      this.srtt = ms;
      this.rttvar = ms / 2;
      return;
    }
    this.rttvar = 0.75 * this.rttvar + 0.25 * Math.abs(this.srtt - ms);
    this.srtt = 0.875 * this.srtt + 0.125 * ms;
  }

  private rto(): number {
    if (this.srtt === undefined) return MIN_RTO_MS;
    return Math.min(MAX_RTO_MS, Math.max(MIN_RTO_MS, this.srtt + 4 * this.rttvar));
  }

  /** Arms the timer for the oldest reconnect in flight. */
  private watchOldest(): void {
    if (this.rtoTimer || this.inFlight.size === 0) return;
    const oldest = this.inFlight.values().next().value!.sentAt;
    this.rtoTimer = setTimeout(() => this.expire(), Math.max(0, oldest + this.rto() - performance.now()));
    this.rtoTimer.unref();
  }

  private expire(): void {
    this.rtoTimer = undefined;
    const now = performance.now();
    const rto = this.rto();
    for (const [ticket, { sentAt, relayed }] of this.inFlight) {
      if (now - sentAt < rto) break;
      this.inFlight.delete(ticket);
      // unanswered behind a proxy: that server's silence (its own header deadline deals with it), not the proxy's
      const outcome = relayed ? 'late' : 'lost';
      this.adjust(ticket, outcome);
      this.notify(outcome);
    }
    this.pump();
    this.watchOldest();
  }

  /** Refuses every waiting reconnect (the pool closed). */
  close(error: Error): void {
    if (this.rtoTimer) clearTimeout(this.rtoTimer);
    this.rtoTimer = undefined;
    this.line.failAll(error);
  }

  private pump(): void {
    while (this.line.size > 0 && this.inFlight.size < Math.floor(this.size)) {
      const ticket = this.sent++;
      this.inFlight.set(ticket, { sentAt: performance.now(), relayed: this.line.peek()! });
      this.line.serve(ticket);
      this.notify('sent');
    }
    this.watchOldest();
  }

  private notify(event: ReconnectWindowState['event']): void {
    const { onChange } = this.options;
    onChange?.({ size: Math.floor(this.size), inFlight: this.inFlight.size, waiting: this.line.size, event });
  }
}

/**
 * Whether a request to `url` goes through a proxy to one of the servers behind it: its path does not start at the
 * Kubernetes API (`/api`, `/apis`), as an ACM hub's cluster-proxy's `/<cluster>/apis/...` does not.
 */
export function isRelayed(url: URL): boolean {
  const root = url.pathname.split('/', 2)[1];
  return root !== 'api' && root !== 'apis';
}
