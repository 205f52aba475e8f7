import 'server-only';

type Hook = () => void | Promise<void>;

interface ShutdownState {
  draining: boolean;
  /** Open streams, told to reconnect (elsewhere) first. */
  streams: Set<() => void>;
  /** Resources closed after the streams (fleet watches, databases). */
  closers: Hook[];
}

// On globalThis: the proxy, routes and instrumentation are separate bundles of one process.
const holder = globalThis as unknown as { __updateHealthShutdown?: ShutdownState };

function state(): ShutdownState {
  holder.__updateHealthShutdown ??= { draining: false, streams: new Set(), closers: [] };
  return holder.__updateHealthShutdown;
}

/** True once SIGTERM arrived: /readyz turns 503 so the Service stops sending new requests here. */
export function isDraining(): boolean {
  return state().draining;
}

/** Registers an open stream's "reconnect now" action; returns the unregister function. */
export function onDrainStream(close: () => void): () => void {
  state().streams.add(close);
  return () => state().streams.delete(close);
}

/** Registers a resource to close on shutdown, after the streams (in registration order). */
export function onShutdown(close: Hook): void {
  state().closers.push(close);
}

/**
 * Graceful stop: report not ready, tell every SSE client to reconnect (their EventSource comes back through the
 * Service to another replica), then close watches and databases. Idempotent.
 */
export async function drain(): Promise<void> {
  const current = state();
  if (current.draining) return;
  current.draining = true;
  for (const close of [...current.streams]) close();
  current.streams.clear();
  for (const close of current.closers) {
    try {
      await close();
    } catch {
      // one failing resource must not keep the others open
    }
  }
}
