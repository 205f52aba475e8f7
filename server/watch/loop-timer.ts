import 'server-only';

/** Lateness below this is ordinary timer jitter, not a blocked event loop. */
const LATE_SLACK_MS = 20;

/**
 * `setTimeout` for deadlines set on a peer (connect, PING, response headers): a timer that fires late because the
 * event loop was blocked re-arms for its lateness, so the time our own loop was busy is not counted against the peer
 * (whose answer may be sitting unread in the socket). The extension is at most `ms` again, so a peer that is really
 * gone is still declared so within twice the deadline however busy the loop stays. Returns a cancel function.
 */
export function loopAwareTimeout(fn: () => void, ms: number, options: { unref?: boolean } = {}): () => void {
  let handle: NodeJS.Timeout | undefined;
  let extended = 0;
  const arm = (delay: number) => {
    const due = performance.now() + delay;
    handle = setTimeout(() => {
      const late = performance.now() - due;
      if (late > LATE_SLACK_MS && extended < ms) {
        const more = Math.min(late, ms - extended);
        extended += more;
        arm(more);
        return;
      }
      handle = undefined;
      fn();
    }, delay);
    if (options.unref) handle.unref();
  };
  arm(ms);
  return () => {
    if (handle) clearTimeout(handle);
    handle = undefined;
  };
}
