import 'server-only';
import type { ResourceName } from '@/lib/k8s/resources';
import type { Condition, KubeObject, ManagedFieldsEntry, ObjectMeta, OwnerReference } from '@/lib/k8s/types';
import { configProjection, sharedUpdateLists } from './projections-config';
import { defined, internStrings, internedCopy, record, type Json } from './projections-strings';
import { withoutUnreadFields } from './projections-nodes';

/** The annotation `kubectl apply` writes: a full copy of the object (sometimes with secrets), never needed here. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** What is kept of one managedFields entry: who wrote, through which subresource, and when last. */
export interface CompactManagedField {
  manager: string;
  subresource?: string;
  time?: string;
}

/** A container's state as the projection keeps it. */
export interface ContainerStateProjection {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: { reason?: string; message?: string; exitCode?: number; finishedAt?: string; startedAt?: string };
}

/** The slim pod the cache holds (about a tenth of the heap of a whole pod). */
export interface PodProjection extends KubeObject {
  metadata: ObjectMeta;
  spec: { nodeName?: string; containers: { name: string }[] };
  status: {
    phase?: string;
    reason?: string;
    message?: string;
    conditions?: Condition[];
    containerStatuses?: {
      name: string;
      ready: boolean;
      restartCount: number;
      state?: ContainerStateProjection;
      lastState?: ContainerStateProjection;
    }[];
  };
}

/** The slim core/v1 Event the cache holds. */
export interface EventProjection extends KubeObject {
  involvedObject: {
    apiVersion?: string;
    kind?: string;
    name?: string;
    namespace?: string;
    uid?: string;
    fieldPath?: string;
  };
  reason?: string;
  message?: string;
  type?: string;
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  source?: { component?: string; host?: string };
}

/**
 * Reduces managedFields to the latest write time per manager and subresource. The field sets are dropped:
 * they are a quarter of a typical object and nothing reads them, but write times (e.g. when the CVO last
 * managed to write ClusterVersion status) are evidence for detectors.
 */
export function compactManagedFields(entries: ManagedFieldsEntry[] | undefined): CompactManagedField[] | undefined {
  if (!Array.isArray(entries) || entries.length === 0) return undefined;
  const latest = new Map<string, CompactManagedField>();
  for (const entry of entries) {
    const manager = entry.manager ?? '';
    const key = `${manager}\u0000${entry.subresource ?? ''}`;
    const seen = latest.get(key);
    if (!seen || (entry.time ?? '') > (seen.time ?? '')) {
      latest.set(key, defined({ manager, subresource: entry.subresource || undefined, time: entry.time }));
    }
  }
  return [...latest.values()];
}

/** Metadata with managedFields compacted and the last-applied annotation removed; the input is not changed. */
export function slimMetadata(metadata: ObjectMeta): ObjectMeta {
  const out: ObjectMeta = { ...metadata };
  const compact = compactManagedFields(metadata.managedFields);
  if (compact) out.managedFields = compact as ManagedFieldsEntry[];
  else delete out.managedFields;
  if (metadata.annotations && LAST_APPLIED_ANNOTATION in metadata.annotations) {
    const { [LAST_APPLIED_ANNOTATION]: _dropped, ...rest } = metadata.annotations;
    void _dropped;
    out.annotations = rest;
  }
  return out;
}

/** An object kept whole except for managedFields (compacted) and the last-applied annotation. */
export function stripObject<T extends KubeObject>(object: T): T {
  return { ...object, metadata: slimMetadata(object.metadata) };
}

function identity(metadata: ObjectMeta): ObjectMeta {
  return defined({
    name: metadata.name,
    namespace: metadata.namespace,
    uid: metadata.uid,
    resourceVersion: metadata.resourceVersion,
    creationTimestamp: metadata.creationTimestamp,
    deletionTimestamp: metadata.deletionTimestamp,
  });
}

function ownerRefs(refs: OwnerReference[] | undefined): OwnerReference[] | undefined {
  if (!Array.isArray(refs)) return undefined;
  return refs.map((ref) =>
    defined({ apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, controller: ref.controller }),
  );
}

function containerState(value: unknown): ContainerStateProjection | undefined {
  const state = record(value);
  const out: ContainerStateProjection = {};
  if (state.waiting) {
    const w = record(state.waiting);
    out.waiting = defined({ reason: w.reason as string | undefined, message: w.message as string | undefined });
  }
  if (state.running) out.running = defined({ startedAt: record(state.running).startedAt as string | undefined });
  if (state.terminated) {
    const t = record(state.terminated);
    out.terminated = defined({
      reason: t.reason as string | undefined,
      message: t.message as string | undefined,
      exitCode: t.exitCode as number | undefined,
      finishedAt: t.finishedAt as string | undefined,
      startedAt: t.startedAt as string | undefined,
    });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function conditions(value: unknown): Condition[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((c: Condition) =>
    defined({
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
      lastTransitionTime: c.lastTransitionTime,
    }),
  );
}

/** The slim pod: identity, owners, node, phase, conditions and per-container readiness, restarts and states. */
export function projectPod(pod: KubeObject): PodProjection {
  const spec = record(pod.spec);
  const status = record(pod.status);
  const containers = Array.isArray(spec.containers) ? (spec.containers as Json[]) : [];
  const statuses = Array.isArray(status.containerStatuses) ? (status.containerStatuses as Json[]) : undefined;
  return {
    apiVersion: pod.apiVersion,
    kind: pod.kind,
    metadata: defined({
      ...identity(pod.metadata),
      labels: pod.metadata.labels,
      ownerReferences: ownerRefs(pod.metadata.ownerReferences),
    }),
    spec: defined({
      nodeName: spec.nodeName as string | undefined,
      containers: containers.map((c) => ({ name: String(c.name) })),
    }),
    status: defined({
      phase: status.phase as string | undefined,
      reason: status.reason as string | undefined,
      message: status.message as string | undefined,
      conditions: conditions(status.conditions),
      containerStatuses: statuses?.map((cs) =>
        defined({
          name: String(cs.name),
          ready: cs.ready === true,
          restartCount: typeof cs.restartCount === 'number' ? cs.restartCount : 0,
          state: containerState(cs.state),
          lastState: containerState(cs.lastState),
        }),
      ),
    }),
  };
}

/** The slim core/v1 Event: what happened to which object, how often, and when. */
export function projectEvent(event: KubeObject): EventProjection {
  const involved = record(event.involvedObject);
  const source = record(event.source);
  return defined({
    apiVersion: event.apiVersion,
    kind: event.kind,
    metadata: identity(event.metadata),
    involvedObject: defined({
      apiVersion: involved.apiVersion as string | undefined,
      kind: involved.kind as string | undefined,
      name: involved.name as string | undefined,
      namespace: involved.namespace as string | undefined,
      uid: involved.uid as string | undefined,
      fieldPath: involved.fieldPath as string | undefined,
    }),
    reason: event.reason as string | undefined,
    message: event.message as string | undefined,
    type: event.type as string | undefined,
    count: event.count as number | undefined,
    firstTimestamp: event.firstTimestamp as string | undefined,
    lastTimestamp: event.lastTimestamp as string | undefined,
    eventTime: (event.eventTime as string | null | undefined) ?? undefined,
    source:
      source.component || source.host
        ? defined({ component: source.component as string | undefined, host: source.host as string | undefined })
        : undefined,
  });
}

/**
 * The form in which an object of `resource` is cached: slim for pods and events, the ClusterVersion CRD reduced to
 * its capability enums, other kinds stripped of what no detector reads; every string shared with equal ones, and a
 * ClusterVersion's update lists with every cluster offered the same.
 */
export function projectObject(resource: ResourceName, object: KubeObject): KubeObject {
  if (resource === 'pods') return internStrings(projectPod(object));
  if (resource === 'events') return internStrings(projectEvent(object));
  const slim = stripObject(object);
  const projected = internedCopy(withoutUnreadFields(resource, configProjection(resource, slim)));
  return resource === 'clusterversions' ? sharedUpdateLists(projected) : projected;
}
