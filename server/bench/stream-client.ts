/**
 * A browser-like `/api/stream` client for benchmarks: one long-lived SSE connection, as the fleet page opens it
 * (`?view=summary`: a row per cluster), or a cluster page's detailed stream; rows indexed by cluster. Like the
 * browser's EventSource it reconnects when the server ends the stream (after the `retry:` delay, with
 * `Last-Event-ID`), and the fresh snapshot it then receives counts as seeing what it carries.
 */
export interface StreamClient {
  /** Resolves once the first health message of `count` distinct clusters arrived (the snapshot). */
  waitForSnapshot(count: number, timeoutMs: number): Promise<void>;
  /** When (performance.now) the first health, row or row patch of `clusterId` with channel `marker` arrived. */
  waitForChannel(clusterId: string, marker: string, timeoutMs: number): Promise<number>;
  /** Times the server ended the stream and the client connected again. */
  readonly reconnects: number;
  /** Bytes of stream body received so far, over every connection. */
  readonly bytes: number;
  close(): void;
}

interface Waiter {
  clusterId: string;
  marker: string;
  resolve: (at: number) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects to an SSE URL and parses `event: health`, `summary` and `summary-patch` frames as they arrive. */
export async function streamClient(url: string): Promise<StreamClient> {
  const controller = new AbortController();
  const seenClusters = new Set<string>();
  const seenMarkers = new Map<string, number>();
  let waiters: Waiter[] = [];
  let snapshotWaiter: { count: number; resolve: () => void } | undefined;
  let reconnects = 0;
  let bytes = 0;
  let retryMs = 3000;
  let lastEventId: string | undefined;
  const onRow = (data: string, at: number) => {
    type Channel = { channel?: string | null };
    const message = JSON.parse(data) as { clusterId: string; summary?: Channel; set?: Channel };
    seenClusters.add(message.clusterId);
    const channel = (message.summary ?? message.set)?.channel;
    if (channel?.startsWith('bench-')) {
      const key = `${message.clusterId} ${channel}`;
      if (!seenMarkers.has(key)) seenMarkers.set(key, at);
      waiters = waiters.filter((w) => {
        if (w.clusterId !== message.clusterId || w.marker !== channel) return true;
        w.resolve(at);
        return false;
      });
    }
    if (snapshotWaiter && seenClusters.size >= snapshotWaiter.count) snapshotWaiter.resolve();
  };
  const open = async () => {
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId) headers['last-event-id'] = lastEventId;
    const response = await fetch(url, { signal: controller.signal, headers });
    if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
    return response.body as unknown as AsyncIterable<Uint8Array>;
  };
  const read = async (body: AsyncIterable<Uint8Array>) => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of body) {
      const at = performance.now();
      bytes += chunk.byteLength;
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        for (const line of lines) {
          if (line.startsWith('retry: ')) retryMs = Number(line.slice(7)) || retryMs;
          else if (line.startsWith('id: ')) lastEventId = line.slice(4);
        }
        const rows = ['event: health', 'event: summary', 'event: summary-patch'];
        if (!rows.some((event) => lines.includes(event))) continue;
        const data = lines
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (data) onRow(data, at);
      }
    }
  };
  let body = await open();
  void (async () => {
    while (!controller.signal.aborted) {
      try {
        await read(body);
      } catch {
        // the connection broke: reconnect as a browser would
      }
      if (controller.signal.aborted) return;
      for (;;) {
        await sleep(retryMs);
        if (controller.signal.aborted) return;
        try {
          body = await open();
          reconnects += 1;
          break;
        } catch {
          // not up yet: keep retrying
        }
      }
    }
  })();
  const timeout = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref(),
      ),
    ]);
  return {
    waitForSnapshot: (count, timeoutMs) =>
      seenClusters.size >= count
        ? Promise.resolve()
        : timeout(
            new Promise<void>((resolve) => {
              snapshotWaiter = { count, resolve };
            }),
            timeoutMs,
            `${count} clusters on the stream`,
          ),
    waitForChannel: (clusterId, marker, timeoutMs) => {
      const seen = seenMarkers.get(`${clusterId} ${marker}`);
      if (seen !== undefined) return Promise.resolve(seen);
      return timeout(
        new Promise<number>((resolve) => waiters.push({ clusterId, marker, resolve })),
        timeoutMs,
        `${clusterId} ${marker}`,
      );
    },
    get reconnects() {
      return reconnects;
    },
    get bytes() {
      return bytes;
    },
    close: () => controller.abort(),
  };
}
