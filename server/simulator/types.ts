/**
 * Contracts inside the embedded cluster. The API server core (store, HTTP, validation, watch, faults) implements
 * `SimClient`, `VirtualClock`, `PodLogs` and `PodProxy`; scenarios and simulated controllers only use these
 * interfaces, so every write a controller makes goes through the same admission and validation as a kubectl write.
 */
import type { KubeObject, Status } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';

/** Patch types the API server accepts (kubectl's `--type=merge|json|strategic`). */
export type PatchType = 'merge' | 'json' | 'strategic';

/** Options of an in-process list. */
export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Thrown by SimClient calls when the API server answers with a Status (404, 409, 422 ...). */
export class ApiStatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message);
    this.name = 'ApiStatusError';
  }
  get code(): number {
    return this.status.code;
  }
}

/**
 * An in-process API client with the same semantics as the HTTP API: resourceVersion bumps, generation on spec
 * changes, CRD schema validation (422 Invalid), conflicts on stale resourceVersion (409), watch events.
 * `identity` names the field manager that appears in managedFields (e.g. `cluster-version-operator`).
 */
export interface SimClient {
  get(resource: ResourceName, name: string, namespace?: string): KubeObject | undefined;
  list(resource: ResourceName, options?: ListOptions): KubeObject[];
  /**
   * The stored object itself, not a copy: for a resync that only reads (an idle cluster's controllers read every few
   * seconds, and copying each object each time was most of their CPU). Never mutate it or anything in it.
   */
  read(resource: ResourceName, name: string, namespace?: string): Readonly<KubeObject> | undefined;
  /** {@link SimClient.list} without copies, for reading only, as {@link SimClient.read}. */
  readList(resource: ResourceName, options?: ListOptions): readonly Readonly<KubeObject>[];
  create(resource: ResourceName, object: KubeObject): KubeObject;
  /** Replaces the object (spec and metadata; status is ignored for resources with a status subresource). */
  update(resource: ResourceName, object: KubeObject): KubeObject;
  /** Replaces only the status (the `/status` subresource). */
  updateStatus(resource: ResourceName, object: KubeObject): KubeObject;
  patch(
    resource: ResourceName,
    name: string,
    patch: unknown,
    options?: { namespace?: string; type?: PatchType; subresource?: 'status' },
  ): KubeObject;
  delete(resource: ResourceName, name: string, namespace?: string): void;
}

/** A virtual clock. Timers fire in time order when the clock advances; nothing reads the wall clock. */
export interface VirtualClock {
  /** Current virtual time, epoch milliseconds. */
  now(): number;
  /** Runs `fn` once at virtual time `now() + delayMs`. Returns a cancel function. */
  setTimeout(fn: () => void, delayMs: number): () => void;
  /** Runs `fn` every `intervalMs` of virtual time. Returns a cancel function. */
  setInterval(fn: () => void, intervalMs: number): () => void;
  /** Moves virtual time forward by `ms`, firing due timers in order. */
  advance(ms: number): void;
}

/** Container logs the simulator serves at `/api/v1/namespaces/{ns}/pods/{pod}/log`. */
export interface PodLogs {
  append(namespace: string, pod: string, container: string, line: string): void;
  read(namespace: string, pod: string, container: string, options?: { tailLines?: number; previous?: boolean }): string;
}

/** A response a simulated pod or service gives to a proxied GET. */
export interface ProxyResponse {
  status: number;
  contentType: string;
  body: string;
}

/** Handler for GETs proxied to a pod port (`/api/v1/namespaces/{ns}/pods/{pod}:{port}/proxy/{path}`). */
export type ProxyHandler = (path: string) => ProxyResponse;

/** Registry of what simulated pods and services answer on their ports. */
export interface PodProxy {
  /**
   * `prepare`, when given, is awaited before each proxied GET to the pod: for an answer rendered asynchronously (a
   * prom-client registry), so that it is rendered when read rather than after every change.
   */
  registerPod(namespace: string, pod: string, port: number, handler: ProxyHandler, prepare?: () => Promise<void>): void;
  unregisterPod(namespace: string, pod: string): void;
  /** A service proxy picks a ready pod selected by the service, as kube-proxy would. */
  registerService(namespace: string, service: string, port: number, handler: ProxyHandler): void;
  /** Resolves once what a pod answers is current (its `prepare`, if it registered one). */
  prepare(target: 'pods' | 'services', namespace: string, name: string): Promise<void>;
  /** What a pod or service answers to a GET on `port` (its lowest port when undefined); undefined: nothing listens. */
  handle(
    target: 'pods' | 'services',
    namespace: string,
    name: string,
    port: number | undefined,
    path: string,
  ): ProxyResponse | undefined;
}

/** Everything a scenario gets to build and drive its cluster. */
export interface ScenarioContext {
  client: SimClient;
  /** A client whose writes are attributed to the named field manager. */
  as(manager: string): SimClient;
  clock: VirtualClock;
  /** Deterministic pseudo-random numbers in [0, 1), seeded per scenario. */
  random(): number;
  logs: PodLogs;
  proxy: PodProxy;
}

/** Names of the scenarios, one embedded cluster each. */
export const SCENARIO_NAMES = [
  'steady',
  'update-in-progress',
  'cross-minor-rollback',
  'hypershift-featuregate-drop',
  'catalogd-rollout',
  'high-density-drain',
  'extension-install-flap',
  'hypershift-management',
] as const;

/** A scenario name. */
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** A scripted cluster story. `start` creates the objects and registers controllers on the clock. */
export interface Scenario {
  name: ScenarioName;
  title: string;
  description: string;
  /** Virtual ms from start after which the story has reached its failure (the default speed gets there < 2 min). */
  failureAtMs: number;
  start(context: ScenarioContext): void;
}

/**
 * A fault the API server injects into matching requests (test-only control surface, admin token):
 * - `drop`: destroy the socket abruptly (watch: after headers and any pending events; others: before headers);
 * - `silence`: send headers, then nothing ever (a half-open watch);
 * - `hang`: accept the connection, never send headers;
 * - `status`: answer `status` (e.g. 429 with `retryAfterSeconds`, 500, 401, 403) with a proper Status body;
 * - `reset`: ECONNRESET before any response byte;
 * - `close`: answer a watch with 200 and end the stream at once with no events;
 * - `slow`: delay the response by `delayMs`;
 * - `expire`: answer the request with 410 Expired (HTTP status for list/get; an in-stream ERROR event for watch).
 * `count` limits the rule to the next N matching requests (default: until cleared).
 */
export interface FaultRule {
  resource?: ResourceName;
  verb?: 'get' | 'list' | 'watch' | 'any';
  kind: 'drop' | 'silence' | 'hang' | 'status' | 'reset' | 'close' | 'slow' | 'expire';
  status?: number;
  retryAfterSeconds?: number;
  delayMs?: number;
  count?: number;
}
