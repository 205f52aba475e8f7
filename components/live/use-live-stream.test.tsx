// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClusterListDto, ClusterSeriesDto, StreamMessage } from '@/lib/api/dto';
import { clusterQueries } from '@/lib/queries/cluster-queries';
import { useLiveStream } from './use-live-stream';

class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, ((ev: MessageEvent) => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, fn: (ev: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close(): void {
    this.closed = true;
    this.readyState = FakeEventSource.CLOSED;
  }
  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  emit(msg: StreamMessage | string, type = typeof msg === 'string' ? 'health' : msg.type): void {
    const data = typeof msg === 'string' ? msg : JSON.stringify(msg);
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data }));
  }
}

const summary = {
  id: 'a',
  name: 'a',
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity: 'ok' as const,
  findingCounts: { critical: 0, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone' as const,
};
const health = {
  cluster: { id: 'a', name: 'a', version: '4.16.3', desiredVersion: '4.16.3', channel: null, history: [] },
  findings: [],
  updateProgress: null,
  updateRecommendations: null,
  sources: [],
};

let client: QueryClient;
const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={client}>{children}</QueryClientProvider>
);

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  client = new QueryClient();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('useLiveStream', () => {
  it('opens one stream for the sorted, de-duplicated cluster ids and reports its state', () => {
    const { result } = renderHook(() => useLiveStream(['b', 'a', 'b']), { wrapper });
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(FakeEventSource.instances[0].url).toBe('/api/stream?clusters=a%2Cb');
    expect(result.current).toBe('connecting');
    act(() => FakeEventSource.instances[0].open());
    expect(result.current).toBe('live');
  });

  it('applies messages to the cache in a batch, ignoring malformed ones', () => {
    client.setQueryData(clusterQueries.list().queryKey, { clusters: [summary] } satisfies ClusterListDto);
    client.setQueryData(clusterQueries.series('a').queryKey, {
      clusterId: 'a',
      now: 0,
      samples: {},
      transitions: [],
    } satisfies ClusterSeriesDto);
    renderHook(() => useLiveStream(['a']), { wrapper });
    const es = FakeEventSource.instances[0];
    act(() => {
      es.emit('not json');
      es.emit({ type: 'health', clusterId: 'a', health, summary: { ...summary, worstSeverity: 'critical' } });
      es.emit({
        type: 'samples',
        clusterId: 'a',
        detector: 'catalog-replicas',
        points: [{ t: 5, values: { ready: 0 } }],
      });
    });
    expect(client.getQueryData(clusterQueries.health('a').queryKey)).toBeUndefined();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(client.getQueryData(clusterQueries.health('a').queryKey)).toEqual(health);
    expect(client.getQueryData<ClusterListDto>(clusterQueries.list().queryKey)?.clusters[0].worstSeverity).toBe(
      'critical',
    );
    expect(
      client.getQueryData<ClusterSeriesDto>(clusterQueries.series('a').queryKey)?.samples['catalog-replicas'],
    ).toHaveLength(1);
  });

  it("on the fleet page's stream, applies a whole row and then a patch of what changed in it", () => {
    client.setQueryData(clusterQueries.list().queryKey, { clusters: [summary] } satisfies ClusterListDto);
    renderHook(() => useLiveStream('all', 'summary'), { wrapper });
    const es = FakeEventSource.instances[0];
    expect(es.url).toBe('/api/stream?view=summary');
    const since = '2026-11-25T09:00:00Z';
    const stale = { resource: 'pods', status: 'stale' as const, since };
    act(() => {
      es.emit({
        type: 'summary',
        clusterId: 'a',
        summary: { ...summary, sources: { total: 3, synced: 3, behind: [] } },
      });
      const sources = { total: 3, synced: 2, behind: [stale], since };
      es.emit({ type: 'summary-patch', clusterId: 'a', set: { worstSeverity: 'warning', sources } });
      vi.advanceTimersByTime(600);
    });
    const row = client.getQueryData<ClusterListDto>(clusterQueries.list().queryKey)?.clusters[0];
    expect(row).toEqual({
      ...summary,
      worstSeverity: 'warning',
      sources: { total: 3, synced: 2, behind: [stale], since },
    });
  });

  it('reopens a stream the server closed, and closes it on unmount', () => {
    const { result, unmount } = renderHook(() => useLiveStream(['a']), { wrapper });
    const first = FakeEventSource.instances[0];
    act(() => {
      first.readyState = FakeEventSource.CLOSED;
      first.onerror?.();
    });
    expect(result.current).toBe('closed');
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(FakeEventSource.instances).toHaveLength(2);
    unmount();
    expect(FakeEventSource.instances[1].closed).toBe(true);
  });

  it('opens nothing without clusters', () => {
    const { result } = renderHook(() => useLiveStream([]), { wrapper });
    expect(FakeEventSource.instances).toHaveLength(0);
    expect(result.current).toBe('idle');
  });
});
