/**
 * A browser-like `/api/stream` client for benchmarks: one long-lived SSE connection, as the fleet page opens it
 * (`?view=summary`: a row per cluster), or a cluster page's detailed stream; rows indexed by cluster.
 */
export interface StreamClient {
  /** Resolves once the first health message of `count` distinct clusters arrived (the snapshot). */
  waitForSnapshot(count: number, timeoutMs: number): Promise<void>;
  /** Resolves with the arrival time (performance.now) of the first health message of `clusterId` whose channel is `marker`. */
  waitForChannel(clusterId: string, marker: string, timeoutMs: number): Promise<number>;
  close(): void;
}

interface Waiter {
  clusterId: string;
  marker: string;
  resolve: (at: number) => void;
}

/** Connects to an SSE URL and parses `event: health` and `event: summary` frames as they arrive. */
export async function streamClient(url: string): Promise<StreamClient> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status}`);
  const seenClusters = new Set<string>();
  const seenMarkers = new Map<string, number>();
  let waiters: Waiter[] = [];
  let snapshotWaiter: { count: number; resolve: () => void } | undefined;
  const onRow = (data: string, at: number) => {
    const message = JSON.parse(data) as { clusterId: string; summary: { channel?: string | null } };
    seenClusters.add(message.clusterId);
    const channel = message.summary.channel;
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
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const at = performance.now();
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = frame.split('\n');
          if (!lines.includes('event: health') && !lines.includes('event: summary')) continue;
          const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
          if (data) onRow(data, at);
        }
      }
    } catch {
      // aborted on close
    }
  })();
  const timeout = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms).unref())]);
  return {
    waitForSnapshot: (count, timeoutMs) => (seenClusters.size >= count ? Promise.resolve()
      : timeout(new Promise<void>((resolve) => { snapshotWaiter = { count, resolve }; }), timeoutMs, `${count} clusters on the stream`)),
    waitForChannel: (clusterId, marker, timeoutMs) => {
      const seen = seenMarkers.get(`${clusterId} ${marker}`);
      if (seen !== undefined) return Promise.resolve(seen);
      return timeout(new Promise<number>((resolve) => waiters.push({ clusterId, marker, resolve })), timeoutMs, `${clusterId} ${marker}`);
    },
    close: () => controller.abort(),
  };
}
