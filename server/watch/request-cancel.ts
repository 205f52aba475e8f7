import 'server-only';

/**
 * Ends a request from the caller's side, as an aborted `AbortSignal` does. The request holds one callback on it where
 * a signal would hold an event listener and its map (about 400 bytes): a fleet's open watches each hold one for hours.
 */
export class RequestCancel {
  private onCancel: (() => void) | undefined;
  private cancelled = false;

  /** True once {@link abort} was called. */
  get aborted(): boolean {
    return this.cancelled;
  }

  /** Ends the request it controls; a request started later with it ends at once. */
  abort(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    const onCancel = this.onCancel;
    this.onCancel = undefined;
    onCancel?.();
  }

  /** The transport's hook: what `abort` does while a request runs (undefined once it is over). */
  hook(onCancel: (() => void) | undefined): void {
    this.onCancel = onCancel;
  }
}
