import { streamMessageSchema, type StreamMessage } from '@/lib/api/dto';
import {
  isEmptyInterest,
  messageFor,
  sameInterest,
  streamQuery,
  unionInterest,
  type StreamInterest,
} from '@/lib/live/stream-subscription';
import { revealingReviver } from '@/lib/view/reveal-controls';

/** State of the tab's event stream. */
export type StreamStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'closed';

/** One consumer of the stream in this tab (a page's `useLiveStream`). */
export interface StreamListener {
  interest: StreamInterest;
  onMessage: (message: StreamMessage) => void;
  onStatus: (status: StreamStatus) => void;
}

/** What the hub needs of the browser: injected so tests run several "tabs" in one process. */
export interface HubEnvironment {
  tabId: string;
  /** The browser's EventSource (read when a stream opens). */
  eventSource: () => typeof EventSource | undefined;
  /** A channel every tab of the origin shares; `undefined` where there is none (each tab then streams alone). */
  channel?: () => BroadcastChannel;
  /** The Web Locks API: the tab holding the lock is the one with the stream. */
  locks?: LockManager;
}

type Wire =
  | { kind: 'hello'; tab: string }
  | { kind: 'interest'; tab: string; interest: StreamInterest }
  | { kind: 'bye'; tab: string }
  | { kind: 'event'; type: string; data: string }
  | { kind: 'status'; status: StreamStatus };

const EVENT_TYPES = ['health', 'summary', 'summary-patch', 'samples', 'transitions'] as const;
const LOCK = 'update-health-live-stream';
const REOPEN_MS = 10_000;
/** A tab repeats what it wants this often; one silent for three periods (closed without a goodbye) is forgotten. */
const ANNOUNCE_MS = 5_000;
const FORGET_MS = 3 * ANNOUNCE_MS;

/**
 * One live stream per browser, shared by its tabs. Over HTTP/1.1 a browser opens at most six connections to an
 * origin, and every tab holding its own EventSource would leave the seventh tab with nothing (no stream, not even
 * its fetches). So the tab holding a Web Lock opens the one stream — for the union of what every tab wants — and
 * passes each event on over a BroadcastChannel; every tab applies what it wants of it. When that tab closes, the lock
 * passes to another, which opens the stream from the interests it has been hearing all along.
 */
export class LiveStreamHub {
  private readonly listeners = new Set<StreamListener>();
  private readonly others = new Map<string, { interest: StreamInterest; seenAt: number }>();
  private readonly channel: BroadcastChannel | undefined;
  private leader = false;
  private resign: (() => void) | undefined;
  private lockRequested = false;
  private source: EventSource | undefined;
  private sourceInterest: StreamInterest | undefined;
  private reopenTimer: ReturnType<typeof setTimeout> | undefined;
  private announceTimer: ReturnType<typeof setInterval> | undefined;
  private status: StreamStatus = 'idle';
  private closed = false;

  constructor(private readonly env: HubEnvironment) {
    this.channel = env.locks ? env.channel?.() : undefined;
    if (this.channel) this.channel.onmessage = (event: MessageEvent<Wire>) => this.receive(event.data);
  }

  /** Starts delivering what `listener` wants; returns the function that stops it. */
  subscribe(listener: StreamListener): () => void {
    this.listeners.add(listener);
    listener.onStatus(this.status === 'idle' ? 'connecting' : this.status);
    this.joined();
    this.changed();
    return () => {
      this.listeners.delete(listener);
      this.changed();
    };
  }

  /** Leaves the shared stream for good (the tab is going away): another tab takes it over. */
  close(): void {
    if (this.closed) return;
    this.post({ kind: 'bye', tab: this.env.tabId });
    this.closed = true;
    this.closeSource();
    clearInterval(this.announceTimer);
    this.resign?.();
    this.channel?.close();
  }

  private get ownInterest(): StreamInterest {
    return unionInterest([...this.listeners].map((l) => l.interest));
  }

  private joined(): void {
    if (this.lockRequested) return;
    this.lockRequested = true;
    if (!this.channel || !this.env.locks) {
      this.leader = true;
      return;
    }
    this.post({ kind: 'hello', tab: this.env.tabId });
    this.announceTimer = setInterval(() => {
      this.announce();
      this.forgetSilentTabs();
    }, ANNOUNCE_MS);
    void this.env.locks.request(LOCK, () => {
      if (this.closed) return undefined;
      this.leader = true;
      this.sync();
      return new Promise<void>((release) => (this.resign = release));
    });
  }

  private changed(): void {
    this.announce();
    this.sync();
  }

  private announce(): void {
    this.post({ kind: 'interest', tab: this.env.tabId, interest: this.ownInterest });
  }

  private forgetSilentTabs(): void {
    const now = Date.now();
    let forgot = false;
    for (const [tab, entry] of this.others) {
      if (now - entry.seenAt > FORGET_MS) forgot = this.others.delete(tab);
    }
    if (forgot) this.sync();
  }

  private post(message: Wire): void {
    if (this.closed) return;
    this.channel?.postMessage(message);
  }

  private receive(message: Wire): void {
    if (this.closed) return;
    switch (message.kind) {
      case 'hello':
        this.announce();
        if (this.leader && this.status !== 'idle') this.post({ kind: 'status', status: this.status });
        return;
      case 'interest':
        this.others.set(message.tab, { interest: message.interest, seenAt: Date.now() });
        return this.sync();
      case 'bye':
        this.others.delete(message.tab);
        return this.sync();
      case 'event':
        return this.deliver(message.data);
      case 'status':
        return this.setStatus(message.status);
    }
  }

  /** The leader's one job: keep a stream open for exactly the union of every tab's interest. */
  private sync(): void {
    if (!this.leader || this.closed) return;
    const union = unionInterest([this.ownInterest, ...[...this.others.values()].map((entry) => entry.interest)]);
    if (isEmptyInterest(union)) {
      this.closeSource();
      this.setStatus('idle');
      return;
    }
    if (this.sourceInterest && sameInterest(union, this.sourceInterest)) return;
    this.open(union);
  }

  private open(interest: StreamInterest): void {
    this.closeSource();
    const EventSourceClass = this.env.eventSource();
    if (!EventSourceClass) return;
    this.sourceInterest = interest;
    this.setStatus('connecting');
    const es = new EventSourceClass(`/api/stream?${streamQuery(interest).toString()}`);
    this.source = es;
    for (const type of EVENT_TYPES) {
      es.addEventListener(type, ((event: MessageEvent<string>) => {
        this.post({ kind: 'event', type, data: event.data });
        this.deliver(event.data);
      }) as EventListener);
    }
    es.onopen = () => this.setStatus('live');
    es.onerror = () => {
      if (this.source !== es) return;
      // The browser reconnects by itself (resending Last-Event-ID) unless the stream is closed for good.
      if (es.readyState !== EventSourceClass.CLOSED) return this.setStatus('reconnecting');
      this.setStatus('closed');
      this.closeSource();
      this.reopenTimer = setTimeout(() => this.sync(), REOPEN_MS);
    };
  }

  private closeSource(): void {
    clearTimeout(this.reopenTimer);
    this.source?.close();
    this.source = undefined;
    this.sourceInterest = undefined;
  }

  private setStatus(status: StreamStatus): void {
    if (status === this.status) return;
    this.status = status;
    if (this.leader) this.post({ kind: 'status', status });
    for (const listener of this.listeners) listener.onStatus(status === 'idle' ? 'connecting' : status);
  }

  private deliver(data: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data, revealingReviver);
    } catch {
      return;
    }
    const message = streamMessageSchema.safeParse(parsed);
    if (!message.success) return;
    for (const listener of this.listeners) {
      const mine = messageFor(listener.interest, message.data);
      if (mine) listener.onMessage(mine);
    }
  }
}

let tabHub: LiveStreamHub | undefined;

/** This tab's hub, created on first use: shared with the other tabs where the browser has Web Locks and channels. */
export function liveStreamHub(): LiveStreamHub {
  if (!tabHub) {
    const hub = new LiveStreamHub({
      tabId: globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`,
      eventSource: () => (typeof EventSource === 'undefined' ? undefined : EventSource),
      channel:
        typeof BroadcastChannel === 'undefined' ? undefined : () => new BroadcastChannel('update-health-live-stream'),
      locks: typeof navigator === 'undefined' ? undefined : navigator.locks,
    });
    // A page kept for back/forward navigation comes back with its hub; one really going away hands the stream over.
    if (typeof window !== 'undefined')
      window.addEventListener('pagehide', (event) => {
        if (!event.persisted) hub.close();
      });
    tabHub = hub;
  }
  return tabHub;
}
