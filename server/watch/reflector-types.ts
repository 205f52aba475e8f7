import 'server-only';
import type { ResourceName } from '@/lib/k8s/resources';
import type { KubeObject } from '@/lib/k8s/types';
import type { BackoffOptions, ReflectorClock } from './backoff';
import type { Query } from './kube-request';
import type { KubeTransport } from './kube-transport';

/** What a reflector tells its handler. `synthetic` marks changes found by a relist rather than seen on a watch. */
export type ReflectorEvent =
  { type: 'added' | 'modified' | 'deleted'; object: KubeObject; synthetic?: boolean } | { type: 'synced' };

/** Receives reflector events. Exceptions and rejections are caught and counted, never propagated. */
export type ReflectorHandler = (event: ReflectorEvent) => void | Promise<void>;

/** Something worth logging that did not stop the reflector. */
export interface ReflectorDiagnostic {
  kind: 'handler-error' | 'transform-error' | 'parse-error';
  resource: ResourceName;
  message: string;
  error?: unknown;
}

/** Options of a reflector. Only `transport` and `resource` are required. */
export interface ReflectorOptions {
  transport: KubeTransport;
  resource: ResourceName;
  /** Watch one namespace only (namespaced resources). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  handler?: ReflectorHandler;
  /**
   * Told when the source's status changes, or a failure of a source that never synced appears or clears (read it
   * with `state()`), besides the handler's `synced` event: how a refused, unreachable or stale source reaches whoever
   * shows it. Exceptions are caught and counted as the handler's are.
   */
  onStatus?: () => void;
  /** How objects are cached and emitted. Default: `projectObject(resource, object)`. */
  transform?: (object: KubeObject) => KubeObject;
  /**
   * Sync through a WatchList (`sendInitialEvents`) where the server supports it, else paged LIST + WATCH (chosen
   * automatically and remembered per server). `false`: always LIST + WATCH. Default true.
   */
  watchList?: boolean;
  /** LIST page size. Default 500. */
  pageSize?: number;
  /**
   * How often the server sends BOOKMARK events on a quiet watch (kube-apiserver: about once a minute). The
   * inactivity timeout and the staleness threshold derive from it. Default 60 s.
   */
  bookmarkIntervalMs?: number;
  /**
   * Abort a watch (or list body) after this long without a byte, bookmarks included: catches a black-holed
   * connection. Default three bookmark intervals, so a watch quiet for its expected interval is never cut.
   */
  inactivityTimeoutMs?: number;
  /**
   * A source whose re-watch or relist failed turns `stale` only once its data is older than this (time since the
   * last LIST, event or bookmark). Default two bookmark intervals plus the backoff cap.
   */
  staleAfterMs?: number;
  /** Connect + response-header timeout. Default 30 s. */
  headerTimeoutMs?: number;
  /** Range of the server-side `timeoutSeconds` drawn for each watch. Default 300–600. */
  watchTimeoutSeconds?: { min: number; max: number };
  backoff?: BackoffOptions;
  /** A watch that ends sooner than this with no events counts as a failure. Default 1 s. */
  shortWatchMs?: number;
  clock?: ReflectorClock;
  /** Default: rate-limited `console.warn`. */
  onDiagnostic?: (diagnostic: ReflectorDiagnostic) => void;
  /** Observes every LIST page and WATCH request (diagnostics, tests). */
  onRequest?: (request: { verb: 'list' | 'watch'; query: Query }) => void;
}
