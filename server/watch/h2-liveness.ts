import 'server-only';
import type { ClientHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { KubeTransportError } from './kube-errors';
import { loopAwareTimeout } from './loop-timer';

/** When a session is judged dead, as golang.org/x/net/http2 (client-go) judges it. */
export interface LivenessOptions {
  /** A PING is sent only after this long without a byte from the peer (Go's `ReadIdleTimeout`). */
  readIdleTimeoutMs: number;
  /** The peer is dead if that PING is not acknowledged, nor any other byte received, within this (`PingTimeout`). */
  pingTimeoutMs: number;
}

/**
 * Watches one session for a silent peer (a black hole) and calls `onDead` once it is one; returns a stop function.
 * Bytes read from the socket prove the peer alive: a busy session is never PINGed, and an ACK queued behind DATA
 * the peer is still sending does not fail it. Silence is counted in the ticks of our own timer, so the time the
 * event loop was blocked (and could not read what the peer sent) is not counted as the peer's silence.
 */
export function watchLiveness(
  session: ClientHttp2Session,
  socket: Socket,
  options: LivenessOptions,
  inUse: () => boolean,
  onDead: (error: KubeTransportError) => void,
): () => void {
  const { readIdleTimeoutMs, pingTimeoutMs } = options;
  const tickMs = Math.max(5, Math.floor(readIdleTimeoutMs / 4));
  let seen = socket.bytesRead;
  let quietMs = 0;
  let stopped = false;
  let tickTimer: NodeJS.Timeout | undefined;
  let cancelPing: (() => void) | undefined;

  const progressed = (): boolean => {
    const bytes = socket.bytesRead;
    if (bytes === seen) return false;
    seen = bytes;
    quietMs = 0;
    return true;
  };
  const awaitAck = (acked: () => boolean) => {
    cancelPing = loopAwareTimeout(
      () => {
        cancelPing = undefined;
        if (stopped || acked() || session.destroyed) return;
        // the ACK may be queued behind DATA the peer is still sending: a peer that talks is alive
        if (progressed()) awaitAck(acked);
        else onDead(new KubeTransportError('reset', `HTTP/2 PING not acknowledged within ${pingTimeoutMs} ms`));
      },
      pingTimeoutMs,
      { unref: true },
    );
  };
  const ping = () => {
    let acked = false;
    try {
      session.ping(() => {
        acked = true;
        cancelPing?.();
        cancelPing = undefined;
        quietMs = 0;
      });
    } catch {
      return; // closing meanwhile: its close event retires it
    }
    progressed();
    awaitAck(() => acked);
  };
  const tick = () => {
    tickTimer = undefined;
    if (stopped || session.destroyed) return;
    // one tick's worth of silence at most, however late the tick fired
    if (!progressed()) quietMs += tickMs;
    if (quietMs >= readIdleTimeoutMs && !cancelPing && inUse()) ping();
    schedule();
  };
  const schedule = () => {
    tickTimer = setTimeout(tick, tickMs);
    tickTimer.unref();
  };
  schedule();
  return () => {
    stopped = true;
    if (tickTimer) clearTimeout(tickTimer);
    cancelPing?.();
  };
}
