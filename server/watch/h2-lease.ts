import 'server-only';
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import { ResetPacer } from './h2-reset-pacer';
import type { ReconnectOutcome, ReconnectWindow } from './h2-reconnect-window';

/** A stream slot on a session, held until `release`. */
export interface AcquiredStream {
  readonly session: ClientHttp2Session;
  readonly release: () => void;
  /**
   * The stream failed: when its session was lost, its retry is owed a place in the origin's {@link ReconnectWindow}
   * and waits there for it (counted once per slot).
   */
  failed(): void;
  /** Follows the stream sent on this slot: when it is a reconnect, its answer paces the origin's next ones. */
  track(stream: ClientHttp2Stream): void;
  /** Bytes read so far from the session's connection: progress proves the server alive (and busy, if slow). */
  bytesRead(): number;
  /** Cancels a stream of this slot that has no response yet, paced per session (see {@link ResetPacer}). */
  cancelUnanswered(stream: ClientHttp2Stream): void;
}

/** A session of the pool and what it knows of its streams. */
export interface PooledSession {
  session: ClientHttp2Session;
  socket: Socket;
  /** Streams opened and not yet closed. */
  active: number;
  /** No new stream may start (GOAWAY received, closing, or failed). */
  draining: boolean;
  idleTimer?: NodeJS.Timeout;
  stopLiveness?: () => void;
  resets?: ResetPacer;
}

/** A held stream slot; methods on the prototype, as a fleet holds tens of thousands of them for hours. */
export class Lease implements AcquiredStream {
  /** The reconnect ticket this slot carries until its answer, -1 when it is none (or was settled). */
  private ticket = -1;
  private owes = false;
  /** Set by the pool once made: one closure per slot, which also settles an unanswered reconnect's place. */
  release: () => void = noRelease;

  constructor(
    private readonly pooled: PooledSession,
    private readonly window: ReconnectWindow,
  ) {}

  get session(): ClientHttp2Session {
    return this.pooled.session;
  }

  /** Makes this slot the reconnect of `ticket`: its stream's answer settles the window's place. */
  carry(ticket: number): void {
    this.ticket = ticket;
  }

  track(stream: ClientHttp2Stream): void {
    if (this.ticket < 0) return;
    stream.once('response', (headers) => {
      const status = Number(headers[':status'] ?? 0);
      this.settle(status === 429 || status >= 500 ? 'overloaded' : 'answered');
    });
  }

  /** Ends the wait of this slot's reconnect, if it carries one not yet settled. */
  settle(outcome: ReconnectOutcome): void {
    if (this.ticket < 0) return;
    const ticket = this.ticket;
    this.ticket = -1;
    this.window.leave(ticket, outcome);
  }

  failed(): void {
    const { session } = this.pooled;
    if (!this.owes && (session.destroyed || session.closed)) {
      this.owes = true;
      this.window.owe();
    }
  }

  bytesRead(): number {
    return this.pooled.socket.bytesRead;
  }

  cancelUnanswered(stream: ClientHttp2Stream): void {
    (this.pooled.resets ??= new ResetPacer()).cancel(stream);
  }
}

function noRelease(): void {}
