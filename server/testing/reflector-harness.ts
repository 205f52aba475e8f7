import 'server-only';
import { afterEach } from 'vitest';
import { createSimulatedCluster, type SimulatedCluster } from '@/server/simulator/core';
import { serveCluster, type ServeClusterOptions, type ServedCluster } from '@/server/simulator/api-server';
import { testNamespace, testPod } from '@/server/simulator/test-objects';
import type { FaultRule } from '@/server/simulator/types';
import { KubeTransport, type KubeTransportOptions } from '@/server/watch/kube-transport';
import { Reflector } from '@/server/watch/reflector';
import type { ReflectorEvent, ReflectorOptions } from '@/server/watch/reflector-types';
import type { Query } from '@/server/watch/kube-request';

/** Test-only: a simulated cluster served over HTTPS, plus helpers to drive it and observe a reflector. */
export interface SimHarness {
  cluster: SimulatedCluster;
  served: ServedCluster;
  transport: KubeTransport;
  fault(rule: FaultRule): string;
  clearFaults(): void;
  /** Active API requests (the /__sim stats request itself excluded), read over HTTPS with the admin token. */
  activeRequests(pathPart?: string): Promise<{ method: string; path: string; query: string }[]>;
  close(): Promise<void>;
}

/** Starts a served cluster with one namespace `ns` and `pods` pods in it. */
export async function startSim(
  options: {
    pods?: number;
    bookmarkIntervalMs?: number;
    transport?: KubeTransportOptions;
    server?: ServeClusterOptions;
  } = {},
): Promise<SimHarness> {
  const cluster = createSimulatedCluster();
  cluster.client.create('namespaces', testNamespace('ns'));
  for (let i = 0; i < (options.pods ?? 0); i += 1) cluster.client.create('pods', testPod('ns', podName(i)));
  // Frequent bookmarks keep quiet watches well inside the short header and inactivity timeouts of FAST.
  const served = await serveCluster(cluster, {
    bookmarkIntervalMs: options.bookmarkIntervalMs ?? 200,
    ...options.server,
  });
  const transport = KubeTransport.fromString(served.kubeconfig('admin'), options.transport);
  return {
    cluster,
    served,
    transport,
    fault: (rule) => cluster.faults.add(rule),
    clearFaults: () => cluster.faults.clear(),
    activeRequests: async (pathPart = '') => {
      const stats = await transport.getJson<{ activeRequests: { method: string; path: string; query: string }[] }>(
        '/__sim/stats',
      );
      return stats.activeRequests.filter((r) => !r.path.startsWith('/__sim') && r.path.includes(pathPart));
    },
    close: async () => {
      transport.close();
      await served.close();
    },
  };
}

/** Ends one thing a test started: closes a relay, a pool or a transport, clears a timer. */
export type Cleanup = () => Promise<void> | void;

/** What a test file's tests start and {@link cleanupAfterEach} ends after each. */
export interface TestStarted {
  sim?: SimHarness;
  observed?: readonly Observed[];
}

/**
 * Ends what each test of a file started, after the test (a vitest `afterEach`: call it at the top level of the
 * file). The reflectors `started()` names stop first, then the cleanups pushed during the test run, the last pushed
 * first, then the simulator closes. Each is ended once: a test file's `sim` and `observed` variables may still name
 * the previous test's after it, and the next test need not start any.
 */
export function cleanupAfterEach(started: () => TestStarted = () => ({})): { push(cleanup: Cleanup): void } {
  const pushed: Cleanup[] = [];
  const ended = new WeakSet<object>();
  afterEach(async () => {
    const { sim, observed = [] } = started();
    for (const o of observed) {
      if (ended.has(o)) continue;
      ended.add(o);
      o.reflector.stop();
    }
    for (const cleanup of pushed.splice(0).reverse()) await cleanup();
    if (sim && !ended.has(sim)) {
      ended.add(sim);
      await sim.close();
    }
  });
  return { push: (cleanup) => void pushed.push(cleanup) };
}

/** `pod-007` style names, sortable. */
export function podName(i: number): string {
  return `pod-${String(i).padStart(3, '0')}`;
}

/** A reflector plus everything it emitted and requested. */
export interface Observed {
  reflector: Reflector;
  events: ReflectorEvent[];
  requests: { verb: 'list' | 'watch'; query: Query; at: number }[];
  watches(): { verb: 'list' | 'watch'; query: Query; at: number }[];
  lists(): { verb: 'list' | 'watch'; query: Query; at: number }[];
}

/**
 * Small timeouts and backoff so failure paths run in test time. These tests pin the paged LIST + WATCH path (their
 * faults target the list and watch verbs); WatchList has its own tests.
 */
export const FAST: Partial<ReflectorOptions> = {
  watchList: false,
  bookmarkIntervalMs: 200,
  inactivityTimeoutMs: 1_000,
  headerTimeoutMs: 1_000,
  shortWatchMs: 300,
  backoff: { initialMs: 100, maxMs: 1_000, resetAfterMs: 5_000 },
  onDiagnostic: () => undefined,
};

/** Builds (not starts) a pods reflector on `ns` that records its events and requests. */
export function observe(transport: KubeTransport, options: Partial<ReflectorOptions> = {}): Observed {
  const events: ReflectorEvent[] = [];
  const requests: Observed['requests'] = [];
  const reflector = new Reflector({
    transport,
    resource: 'pods',
    namespace: 'ns',
    ...FAST,
    ...options,
    handler: (event) => {
      events.push(event);
      return options.handler?.(event);
    },
    onRequest: (request) => {
      requests.push({ ...request, at: Date.now() });
      options.onRequest?.(request);
    },
  });
  return {
    reflector,
    events,
    requests,
    watches: () => requests.filter((r) => r.verb === 'watch'),
    lists: () => requests.filter((r) => r.verb === 'list'),
  };
}

/** Polls `check` until it returns truthy or `timeoutMs` passes (then throws with `what`). */
export async function until<T>(what: string, check: () => T | Promise<T>, timeoutMs = 5_000, everyMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Real-time sleep. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Collects unhandled rejections of the test process; `assertNone` fails if any fired. */
export function trackUnhandledRejections(): { seen: unknown[]; dispose(): void } {
  const seen: unknown[] = [];
  const listener = (reason: unknown) => seen.push(reason);
  process.on('unhandledRejection', listener);
  return { seen, dispose: () => process.off('unhandledRejection', listener) };
}

/** Samples a reflector's status every few ms; `statuses` lists each distinct status in the order seen. */
export function traceStatus(reflector: Reflector, everyMs = 10): { statuses: string[]; stop(): void } {
  const statuses: string[] = [];
  const sample = () => {
    const status = reflector.state().status;
    if (statuses[statuses.length - 1] !== status) statuses.push(status);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    statuses,
    stop: () => {
      clearInterval(timer);
      sample();
    },
  };
}
