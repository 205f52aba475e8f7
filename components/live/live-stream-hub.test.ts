import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamMessage } from '@/lib/api/dto';
import { interestOf } from '@/lib/live/stream-subscription';
import { LiveStreamHub, type StreamListener, type StreamStatus } from './live-stream-hub';

/** The browser's EventSource as far as the hub uses it; every instance is recorded, open or closed. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, ((ev: MessageEvent) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, fn: (ev: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(msg: StreamMessage): void {
    for (const fn of this.listeners.get(msg.type) ?? []) fn(new MessageEvent(msg.type, { data: JSON.stringify(msg) }));
  }
  static open(): FakeEventSource[] {
    return FakeEventSource.instances.filter((es) => es.readyState !== FakeEventSource.CLOSED);
  }
}

const hubs: LiveStreamHub[] = [];
let channelName = '';

/** A "tab": its own hub on the shared channel and the process's Web Locks, as browser tabs of one origin. */
function tab(id: string): LiveStreamHub {
  const hub = new LiveStreamHub({
    tabId: id,
    eventSource: () => FakeEventSource as unknown as typeof EventSource,
    channel: () => new BroadcastChannel(channelName),
    locks: navigator.locks,
  });
  hubs.push(hub);
  return hub;
}

function listen(hub: LiveStreamHub, ids: readonly string[] | 'all', view: 'summary' | 'detail') {
  const received: StreamMessage[] = [];
  const statuses: StreamStatus[] = [];
  const listener: StreamListener = {
    interest: interestOf(ids, view),
    onMessage: (m) => received.push(m),
    onStatus: (s) => statuses.push(s),
  };
  const stop = hub.subscribe(listener);
  return { received, statuses, stop };
}

const summary = (id: string) => ({
  id,
  name: id,
  version: '4.16.3',
  desiredVersion: '4.16.3',
  updating: false,
  worstSeverity: 'critical' as const,
  findingCounts: { critical: 1, warning: 0, info: 0 },
  sources: { total: 0, synced: 0, behind: [] },
  role: 'standalone' as const,
});
const health = (id: string) =>
  ({
    type: 'health',
    clusterId: id,
    summary: summary(id),
    health: {
      cluster: { id, name: id, version: '4.16.3', desiredVersion: '4.16.3', channel: null, history: [] },
      findings: [],
      updateProgress: null,
      updateRecommendations: null,
      sources: [],
    },
  }) as unknown as StreamMessage;

afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
  FakeEventSource.instances = [];
});

describe('one live stream shared by the tabs of a browser', () => {
  it('opens one stream for the union of what every tab wants and gives each tab its part', async () => {
    channelName = `live-${Math.random()}`;
    const fleetTab = listen(tab('one'), 'all', 'summary');
    await vi.waitFor(() => expect(FakeEventSource.open().map((es) => es.url)).toEqual(['/api/stream?view=summary']));

    const clusterTabs = ['two', 'three'].map((id) => listen(tab(id), ['a'], 'detail'));
    await vi.waitFor(() =>
      expect(FakeEventSource.open().map((es) => es.url)).toEqual(['/api/stream?view=summary&detail=a']),
    );
    const [stream] = FakeEventSource.open();
    stream.readyState = FakeEventSource.OPEN;
    stream.onopen?.();
    stream.emit(health('a'));
    stream.emit(health('b'));

    await vi.waitFor(() => {
      for (const t of clusterTabs) expect(t.received.map((m) => `${m.type}:${m.clusterId}`)).toEqual(['health:a']);
    });
    expect(fleetTab.received.map((m) => `${m.type}:${m.clusterId}`)).toEqual(['summary:a', 'summary:b']);
    await vi.waitFor(() => {
      for (const t of clusterTabs) expect(t.statuses.at(-1)).toBe('live');
    });
    expect(fleetTab.statuses.at(-1)).toBe('live');
  });

  it('hands the stream to another tab when the tab holding it closes, for what the remaining tabs want', async () => {
    channelName = `live-${Math.random()}`;
    const first = tab('first');
    listen(first, 'all', 'summary');
    await vi.waitFor(() => expect(FakeEventSource.open()).toHaveLength(1));
    const second = listen(tab('second'), ['b'], 'detail');
    await vi.waitFor(() =>
      expect(FakeEventSource.open().map((es) => es.url)).toEqual(['/api/stream?view=summary&detail=b']),
    );

    first.close();
    await vi.waitFor(() => expect(FakeEventSource.open().map((es) => es.url)).toEqual(['/api/stream?clusters=b']));
    const [stream] = FakeEventSource.open();
    stream.emit(health('b'));
    await vi.waitFor(() => expect(second.received.map((m) => m.type)).toEqual(['health']));
  });

  it('closes the stream when no tab wants anything, and reopens it for a tab that does', async () => {
    channelName = `live-${Math.random()}`;
    const hub = tab('only');
    const page = listen(hub, ['a'], 'detail');
    await vi.waitFor(() => expect(FakeEventSource.open()).toHaveLength(1));
    page.stop();
    expect(FakeEventSource.open()).toHaveLength(0);
    listen(hub, ['c'], 'detail');
    expect(FakeEventSource.open().map((es) => es.url)).toEqual(['/api/stream?clusters=c']);
  });

  it('streams alone where the browser has no Web Locks (no tab to share with)', () => {
    const hub = new LiveStreamHub({
      tabId: 'alone',
      eventSource: () => FakeEventSource as unknown as typeof EventSource,
      channel: () => new BroadcastChannel(`live-${Math.random()}`),
    });
    hubs.push(hub);
    listen(hub, ['a', 'b'], 'detail');
    expect(FakeEventSource.open().map((es) => es.url)).toEqual(['/api/stream?clusters=a%2Cb']);
  });
});
