import 'server-only';
import { constants, type ClientHttp2Stream } from 'node:http2';

/** Cancels of unanswered streams allowed at once on one session, then per second (under Node's 1,000 and 33/s). */
const RESET_BURST = 200;
const RESETS_PER_SECOND = 20;

/**
 * Paces the cancels (RST_STREAM) of streams the server has not answered yet, on one session. A server counts those
 * as a "rapid reset" attack (CVE-2023-44487): Node's (nghttp2's) closes the whole session with INTERNAL_ERROR past
 * 1,000 of them, which would fail every other stream on it, so a thousand requests timing out at once would take
 * the session's healthy watches down with them. Beyond the budget a stream is left to drain (its slot still held)
 * and is cancelled once answered, which costs nothing, or when the budget has room again.
 */
export class ResetPacer {
  private tokens = RESET_BURST;
  private refilledAt = performance.now();
  private readonly deferred: ClientHttp2Stream[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** Cancels `stream`, whose response headers have not arrived, now or as soon as the budget allows. */
  cancel(stream: ClientHttp2Stream): void {
    if (stream.closed || stream.destroyed) return;
    if (this.take()) {
      close(stream);
      return;
    }
    stream.resume();
    stream.once('response', () => close(stream));
    this.deferred.push(stream);
    this.schedule();
  }

  private take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(RESET_BURST, this.tokens + ((now - this.refilledAt) * RESETS_PER_SECOND) / 1000);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      while (this.deferred.length > 0) {
        const stream = this.deferred[0];
        if (stream.closed || stream.destroyed) {
          this.deferred.shift();
          continue;
        }
        if (!this.take()) break;
        this.deferred.shift();
        close(stream);
      }
      if (this.deferred.length > 0) this.schedule();
    }, 1000 / RESETS_PER_SECOND);
    this.timer.unref();
  }
}

function close(stream: ClientHttp2Stream): void {
  if (!stream.closed && !stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
}
