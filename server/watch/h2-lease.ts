import 'server-only';
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2';
import type { Socket } from 'node:net';
import { ResetPacer } from './h2-reset-pacer';

/** A stream slot on a session, held until `release`. */
export interface AcquiredStream {
  readonly session: ClientHttp2Session;
  readonly release: () => void;
  /**
   * After the stream failed: 0 when its session is alive, else how long to wait before reconnecting, a place in
   * the origin's staged reconnects (asked once per slot).
   */
  reconnectDelayMs(): number;
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

/** Longest wait a staged reconnect is given, however many streams were lost at once. */
const MAX_STAGE_MS = 120_000;

/** The origin's reconnects after a session loss: one every `gapMs`, in the order the streams failed. */
export class ReconnectSchedule {
  private nextAt = 0;

  constructor(private readonly gapMs: number) {}

  /** How long the next reconnect waits for its place. */
  next(): number {
    const now = performance.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.gapMs;
    return Math.min(MAX_STAGE_MS, Math.round(at - now));
  }
}

/** A held stream slot; methods on the prototype, as a fleet holds tens of thousands of them for hours. */
export class Lease implements AcquiredStream {
  private delay: number | undefined;

  constructor(
    private readonly pooled: PooledSession,
    private readonly schedule: ReconnectSchedule,
    readonly release: () => void,
  ) {}

  get session(): ClientHttp2Session {
    return this.pooled.session;
  }

  reconnectDelayMs(): number {
    const { session } = this.pooled;
    this.delay ??= session.destroyed || session.closed ? this.schedule.next() : 0;
    return this.delay;
  }

  bytesRead(): number {
    return this.pooled.socket.bytesRead;
  }

  cancelUnanswered(stream: ClientHttp2Stream): void {
    (this.pooled.resets ??= new ResetPacer()).cancel(stream);
  }
}
