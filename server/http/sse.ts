import 'server-only';
import { serviceMetrics } from '@/server/observability/service-metrics';
import { onDrainStream } from '@/server/observability/shutdown';
import type { StreamMessage } from '@/lib/api/dto';
import { summaryPatcher } from '@/lib/live/summary-stream';

/** Subscription source for a stream: the current messages to (re)send on open, and live updates. */
export interface StreamSource {
  /** May be asynchronous (a per-viewer filter asks the cluster); live messages arriving meanwhile follow it in order. */
  snapshot(): StreamMessage[] | Promise<StreamMessage[]>;
  subscribe(listener: (message: StreamMessage) => void): () => void;
}

let sequence = 0;
// One message object is usually sent to every open stream: serialize it once.
const serialized = new WeakMap<StreamMessage, string>();

/** Formats one SSE frame. Ids are server-wide increasing, so `Last-Event-ID` is always comparable. */
export function sseFrame(message: StreamMessage): string {
  sequence += 1;
  let json = serialized.get(message);
  if (json === undefined) {
    json = JSON.stringify(message);
    serialized.set(message, json);
  }
  return `id: ${sequence}\nevent: ${message.type}\ndata: ${json}\n\n`;
}

/** The source with every message passed through `map` (undefined drops it), snapshot included. */
export function mapSource(
  source: StreamSource,
  map: (message: StreamMessage) => StreamMessage | undefined,
): StreamSource {
  const all = (messages: StreamMessage[]) => messages.map(map).filter((message): message is StreamMessage => !!message);
  return {
    snapshot: () => {
      const snapshot = source.snapshot();
      return Array.isArray(snapshot) ? all(snapshot) : snapshot.then(all);
    },
    subscribe: (listener) =>
      source.subscribe((message) => {
        const mapped = map(message);
        if (mapped) listener(mapped);
      }),
  };
}

/** Bytes a client may fall behind before its stream is ended (it reconnects and starts from a fresh snapshot). */
export const MAX_BEHIND_BYTES = 16 * 1024 * 1024;

/**
 * A `text/event-stream` response: current state first (also after a resume with `Last-Event-ID`, because a fresh
 * snapshot is always correct where replaying a gap might not be), then live messages (fleet rows only as what
 * changed since this stream's previous row of the cluster), and a heartbeat comment
 * well inside proxy idle timeouts (OpenShift's router closes idle connections after 30 s).
 */
export function sseResponse(
  source: StreamSource,
  signal: AbortSignal,
  heartbeatMs = 15_000,
  maxBehindBytes = MAX_BEHIND_BYTES,
): Response {
  const encoder = new TextEncoder();
  let cleanup = (): void => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // Bytes queued once the snapshot was: the snapshot is what the client asked for, however large (a detailed
        // stream of 700 clusters is more than 16 MiB); only falling behind on live messages after it ends a stream.
        let queuedAfterSnapshot: number | undefined;
        let ended = false;
        const send = (text: string): void => {
          if (ended) return;
          try {
            controller.enqueue(encoder.encode(text));
            // A client that cannot keep up would make the server buffer without bound: end its stream instead.
            if (
              queuedAfterSnapshot !== undefined &&
              -(controller.desiredSize ?? 0) > queuedAfterSnapshot + maxBehindBytes
            ) {
              ended = true;
              serviceMetrics().sseSlowClientsEnded.inc();
              cleanup();
            }
          } catch {
            cleanup();
          }
        };
        send('retry: 3000\n\n');
        // Fleet rows go out as deltas against what this stream sent before, so the step runs in sending order.
        const patch = summaryPatcher();
        const sendMessage = (message: StreamMessage): void => {
          const out = patch(message);
          if (out) send(sseFrame(out));
        };
        // Subscribe before taking the snapshot, holding live messages until it is sent, so none falls in between.
        let held: StreamMessage[] | undefined = [];
        const unsubscribe = source.subscribe((message) => (held ? held.push(message) : sendMessage(message)));
        const flush = (snapshot: StreamMessage[]) => {
          for (const message of snapshot) sendMessage(message);
          for (const message of held ?? []) sendMessage(message);
          held = undefined;
          queuedAfterSnapshot = Math.max(0, -(controller.desiredSize ?? 0));
        };
        const snapshot = source.snapshot();
        if (Array.isArray(snapshot)) flush(snapshot);
        else snapshot.then(flush, () => cleanup());
        const heartbeat = setInterval(() => send(`: heartbeat ${Date.now()}\n\n`), heartbeatMs);
        const clients = serviceMetrics().sseClients;
        clients.inc();
        // On SIGTERM: a last comment, then end the stream; the browser's EventSource reconnects after `retry`.
        const undrain = onDrainStream(() => {
          send(': server shutting down, reconnect\n\n');
          cleanup();
        });
        cleanup = () => {
          undrain();
          clients.dec();
          clearInterval(heartbeat);
          unsubscribe();
          cleanup = () => {};
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        };
        signal.addEventListener('abort', () => cleanup(), { once: true });
      },
      cancel() {
        cleanup();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 1024 * 1024 }),
  );
  return new Response(body, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform keeps compression and proxies from buffering events.
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  });
}
