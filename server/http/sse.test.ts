import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '@/lib/api/dto';
import { rowSourcesOf } from '@/lib/cluster/row-sources';
import { drain, isDraining } from '@/server/observability/shutdown';
import { serviceMetrics } from '@/server/observability/service-metrics';
import { mapSource, sseResponse, type StreamSource } from '@/server/http/sse';

const message = (clusterId: string): StreamMessage => ({
  type: 'transitions',
  clusterId,
  transitions: [
    { ref: { kind: 'ClusterOperator', name: 'olm' }, type: 'Available', status: 'False', at: '2026-11-22T09:00:00Z' },
  ],
});

function source(): StreamSource & { emit(m: StreamMessage): void; listeners: number } {
  const listeners = new Set<(m: StreamMessage) => void>();
  return {
    snapshot: () => [message('a')],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (m) => listeners.forEach((listener) => listener(m)),
    get listeners() {
      return listeners.size;
    },
  };
}

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  return text;
}

describe('sseResponse', () => {
  it('sends the snapshot, then live messages with increasing ids, then heartbeats; unsubscribes on abort', async () => {
    const src = source();
    const abort = new AbortController();
    const response = sseResponse(src, abort.signal, 50);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('no-transform');
    const reader = response.body!.getReader();
    const first = await readUntil(reader, '"clusterId":"a"');
    expect(first).toMatch(/^retry: 3000\n\nid: \d+\nevent: transitions\ndata: \{/);
    src.emit(message('b'));
    const second = await readUntil(reader, '"clusterId":"b"');
    const ids = [...(first + second).matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBeGreaterThan(ids[0]);
    expect(await readUntil(reader, ': heartbeat')).toContain(': heartbeat');
    expect(src.listeners).toBe(1);
    abort.abort();
    expect(src.listeners).toBe(0);
  });

  it('with an asynchronous snapshot (a per-viewer filter), sends it first and live messages that arrived meanwhile after it', async () => {
    const src = source();
    let release: (messages: StreamMessage[]) => void = () => undefined;
    const slow: StreamSource = {
      snapshot: () =>
        new Promise((resolve) => {
          release = resolve;
        }),
      subscribe: (l) => src.subscribe(l),
    };
    const abort = new AbortController();
    const reader = sseResponse(slow, abort.signal, 60_000).body!.getReader();
    await readUntil(reader, 'retry: 3000');
    src.emit(message('live'));
    release([message('snap')]);
    const text = await readUntil(reader, '"clusterId":"live"');
    expect(text.indexOf('"clusterId":"snap"')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('"clusterId":"snap"')).toBeLessThan(text.indexOf('"clusterId":"live"'));
    abort.abort();
  });

  it('on SIGTERM (drain) tells the client to reconnect, ends the stream and reports not ready', async () => {
    const src = source();
    const reader = sseResponse(src, new AbortController().signal, 60_000).body!.getReader();
    await readUntil(reader, '"clusterId":"a"');
    expect(isDraining()).toBe(false);
    await drain();
    expect(await readUntil(reader, 'reconnect')).toContain(': server shutting down, reconnect');
    expect((await reader.read()).done).toBe(true);
    expect(src.listeners).toBe(0);
    expect(isDraining()).toBe(true);
  });

  it('ends the stream of a client that falls too far behind instead of buffering without bound', async () => {
    const src = source();
    const endedBefore = (await serviceMetrics().sseSlowClientsEnded.get()).values[0]?.value ?? 0;
    const response = sseResponse(src, new AbortController().signal, 60_000, 10_000);
    const reader = response.body!.getReader();
    await readUntil(reader, '"clusterId":"a"');
    // Nobody reads: 40 KB of messages pile up against a 10 KB allowance (beyond the 1 MiB high-water mark it is measured from).
    for (let i = 0; i < 40 && src.listeners > 0; i++) src.emit(message('x'.repeat(30_000)));
    expect(src.listeners).toBe(0);
    expect((await serviceMetrics().sseSlowClientsEnded.get()).values[0]?.value).toBe(endedBefore + 1);
  });

  it('sends a snapshot larger than the allowance in full and only counts falling behind after it', async () => {
    const big: StreamSource = {
      ...source(),
      snapshot: () => Array.from({ length: 50 }, () => message('y'.repeat(30_000))),
    };
    const live = source();
    const endedBefore = (await serviceMetrics().sseSlowClientsEnded.get()).values[0]?.value ?? 0;
    const reader = sseResponse(
      { snapshot: big.snapshot, subscribe: (l) => live.subscribe(l) },
      new AbortController().signal,
      60_000,
      10_000,
    ).body!.getReader();
    expect(live.listeners).toBe(1);
    expect((await serviceMetrics().sseSlowClientsEnded.get()).values[0]?.value ?? 0).toBe(endedBefore);
    live.emit(message('after'));
    expect(live.listeners).toBe(1);
    const text = await readUntil(reader, '"clusterId":"after"');
    expect(text.split('"clusterId":"yyy').length - 1).toBe(50);
  });

  it('mapSource maps snapshot and live messages and drops what the map rejects', async () => {
    const src = source();
    const mapped = mapSource(src, (m) =>
      m.clusterId === 'drop' ? undefined : { ...m, clusterId: `m-${m.clusterId}` },
    );
    expect((mapped.snapshot() as StreamMessage[]).map((m) => m.clusterId)).toEqual(['m-a']);
    const seen: string[] = [];
    const stop = mapped.subscribe((m) => seen.push(m.clusterId));
    src.emit(message('b'));
    src.emit(message('drop'));
    stop();
    expect(seen).toEqual(['m-b']);
  });

  it('sends a fleet row whole, then only what changed (nothing if unchanged); a new stream starts whole', async () => {
    const row = (status: 'synced' | 'stale', severity: 'ok' | 'critical' = 'ok'): StreamMessage => ({
      type: 'summary',
      clusterId: 'a',
      summary: {
        id: 'a',
        name: 'a',
        version: '4.16.3',
        desiredVersion: '4.16.3',
        updating: false,
        worstSeverity: severity,
        findingCounts: { critical: 0, warning: 0, info: 0 },
        role: 'standalone',
        sources: rowSourcesOf(
          ['pods', 'nodes', 'clusterversions'].map((resource) => ({
            resource,
            status: resource === 'nodes' ? status : 'synced',
            since: 'x',
          })),
        ),
      },
    });
    const listeners = new Set<(m: StreamMessage) => void>();
    const src: StreamSource = {
      snapshot: () => [row('synced')],
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const abort = new AbortController();
    const reader = sseResponse(src, abort.signal).body!.getReader();
    expect(await readUntil(reader, '"clusterId":"a"')).toMatch(
      /event: summary\ndata: .*"sources":\{"total":3,"synced":3,/,
    );
    listeners.forEach((l) => l(row('synced')));
    listeners.forEach((l) => l(row('stale', 'critical')));
    const patch = await readUntil(reader, 'event: summary-patch');
    const frame = patch.slice(patch.indexOf('event: summary-patch'));
    expect(patch).not.toContain('event: summary\n');
    expect(JSON.parse(frame.split('data: ')[1])).toEqual({
      type: 'summary-patch',
      clusterId: 'a',
      set: {
        worstSeverity: 'critical',
        sources: { total: 3, synced: 2, behind: [{ resource: 'nodes', status: 'stale', since: 'x' }], since: 'x' },
      },
    });
    abort.abort();
    const resumed = sseResponse(src, new AbortController().signal).body!.getReader();
    expect(await readUntil(resumed, '"clusterId":"a"')).toMatch(/event: summary\ndata: /);
    await resumed.cancel();
  });
});
