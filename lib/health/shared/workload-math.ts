/**
 * Kubernetes controller arithmetic the catalog-replicas detector needs: rolling-update fenceposts as the deployment
 * controller resolves them, what a PodDisruptionBudget allows, pod readiness and Lease holders.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { asArray, asNumber, asObject, asString, dig, timeOf } from '@/lib/health/shared/objects';
import { matchesSelector, type LabelSelector } from '@/lib/k8s/selectors';
import { conditionOf } from '@/lib/k8s/conditions';
import { RESOURCES } from '@/lib/k8s/resources';

/** `spec.replicas` of a Deployment; the API defaults a missing value to 1. */
export function desiredReplicas(deployment: KubeObject): number {
  return asNumber(dig(deployment, 'spec', 'replicas')) ?? 1;
}

/**
 * An int-or-percent scaled against `total` like `intstr.GetScaledValueFromIntOrPercent`: ints pass through,
 * `"25%"` is `total × 25 / 100` rounded up or down. `undefined` for anything else.
 */
export function scaleIntOrPercent(value: unknown, total: number, roundUp: boolean): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value.trim());
    if (!m) return /^\d+$/.test(value.trim()) ? Number(value) : undefined;
    const scaled = (total * Number(m[1])) / 100;
    return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
  }
  return undefined;
}

/** How many pods an update may add and take away at once. */
export interface Fenceposts {
  strategy: 'RollingUpdate' | 'Recreate';
  maxSurge: number;
  maxUnavailable: number;
}

/**
 * Resolves a Deployment's update strategy like the deployment controller (`ResolveFenceposts`): defaults 25%/25%,
 * surge rounded up, unavailable rounded down, and both 0 turns into maxUnavailable 1. `Recreate` takes every
 * replica down.
 */
export function fenceposts(deployment: KubeObject): Fenceposts {
  const replicas = desiredReplicas(deployment);
  if (dig(deployment, 'spec', 'strategy', 'type') === 'Recreate') {
    return { strategy: 'Recreate', maxSurge: 0, maxUnavailable: replicas };
  }
  const rolling = asObject(dig(deployment, 'spec', 'strategy', 'rollingUpdate'));
  const maxSurge = scaleIntOrPercent(rolling?.maxSurge ?? '25%', replicas, true) ?? 0;
  let maxUnavailable = scaleIntOrPercent(rolling?.maxUnavailable ?? '25%', replicas, false) ?? 0;
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { strategy: 'RollingUpdate', maxSurge, maxUnavailable };
}

/** Labels of a Deployment's pod template. */
export function templateLabels(deployment: KubeObject): Record<string, string> {
  return (asObject(dig(deployment, 'spec', 'template', 'metadata', 'labels')) ?? {}) as Record<string, string>;
}

/** The PodDisruptionBudgets in the Deployment's namespace whose selector matches its pod template. */
export function pdbsFor(deployment: KubeObject, pdbs: readonly KubeObject[]): KubeObject[] {
  const labels = templateLabels(deployment);
  return pdbs.filter(
    (p) =>
      p.metadata.namespace === deployment.metadata.namespace &&
      matchesSelector(asObject(dig(p, 'spec', 'selector')) as LabelSelector | undefined, labels),
  );
}

/**
 * The disruptions a PDB can ever allow with `replicas` healthy pods, from its spec alone (like the disruption
 * controller: minAvailable and maxUnavailable percentages round up). `undefined` when the spec sets neither.
 */
export function staticDisruptionsAllowed(pdb: KubeObject, replicas: number): number | undefined {
  const minAvailable = dig(pdb, 'spec', 'minAvailable');
  const maxUnavailable = dig(pdb, 'spec', 'maxUnavailable');
  if (minAvailable !== undefined) {
    const min = scaleIntOrPercent(minAvailable, replicas, true);
    return min === undefined ? undefined : Math.max(0, replicas - min);
  }
  if (maxUnavailable !== undefined) {
    const max = scaleIntOrPercent(maxUnavailable, replicas, true);
    return max === undefined ? undefined : Math.max(0, Math.min(max, replicas));
  }
  return undefined;
}

/** Pods of a Deployment: same namespace, labels matching `spec.selector`. */
export function podsOf(deployment: KubeObject, pods: readonly KubeObject[]): KubeObject[] {
  const selector = asObject(dig(deployment, 'spec', 'selector')) as LabelSelector | undefined;
  return pods.filter(
    (p) =>
      p.metadata.namespace === deployment.metadata.namespace &&
      !p.metadata.deletionTimestamp &&
      matchesSelector(selector, p.metadata.labels ?? {}),
  );
}

/** A pod is ready when it runs and every container status says ready (or its Ready condition is True). */
export function isPodReady(pod: KubeObject): boolean {
  const ready = conditionOf(pod, 'Ready');
  if (ready) return ready.status === 'True';
  const statuses = asArray(dig(pod, 'status', 'containerStatuses'));
  return (
    dig(pod, 'status', 'phase') === 'Running' &&
    statuses.length > 0 &&
    statuses.every((c) => asObject(c)?.ready === true)
  );
}

/** The holder of a controller-runtime leader-election Lease. */
export interface LeaseHolder {
  identity: string;
  /** The pod name: controller-runtime uses `<hostname>_<uuid>` and a pod's hostname is its name. */
  pod: string;
  renewTime?: string;
  /** True when `renewTime + leaseDurationSeconds` lies before `now`. */
  expired: boolean;
}

/** The holder of `lease` at `now` (epoch ms), or `undefined` when nobody holds it. */
export function leaseHolder(lease: KubeObject, now: number): LeaseHolder | undefined {
  const identity = asString(dig(lease, 'spec', 'holderIdentity'));
  if (!identity) return undefined;
  const renewTime = asString(dig(lease, 'spec', 'renewTime'));
  const duration = asNumber(dig(lease, 'spec', 'leaseDurationSeconds'));
  const renewed = timeOf(renewTime);
  const expired = renewed !== undefined && duration !== undefined && renewed + duration * 1000 < now;
  return { identity, pod: identity.split('_')[0], ...(renewTime ? { renewTime } : {}), expired };
}

/** Plain JSON equality, key order aside (API servers and caches may reorder keys). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  if (keys.length !== Object.keys(right).filter((key) => right[key] !== undefined).length) return false;
  return keys.every((key) => sameJson(left[key], right[key]));
}

/** A coordination.k8s.io Lease (not a kind of the same name in another group). */
function isLease(object: KubeObject): boolean {
  const { group, kind } = RESOURCES.leases;
  return object.kind === kind && object.apiVersion.startsWith(`${group}/`);
}

/** A Lease without what a renewal writes: `spec.renewTime`, `metadata.resourceVersion` and `managedFields`. */
function withoutRenewal(lease: KubeObject): unknown {
  const metadata = { ...lease.metadata, resourceVersion: undefined, managedFields: undefined };
  return { ...lease, metadata, spec: { ...asObject(lease.spec), renewTime: undefined } };
}

/**
 * True when `next` is `previous` renewed by its holder and nothing else: the same Lease (namespace, name, uid),
 * the same non-empty `holderIdentity`, `leaseDurationSeconds`, `leaseTransitions` and the rest of its spec and
 * metadata, with only `spec.renewTime` moved forward (and `metadata.resourceVersion` / `managedFields` with it).
 * A renewal keeps a held Lease held and pushes its expiry out, so it cannot raise a finding; a change of holder, an
 * acquisition, a release or a renewTime that did not advance is not a renewal.
 */
export function isLeaseRenewal(previous: KubeObject | undefined, next: KubeObject): boolean {
  if (!previous || !isLease(previous) || !isLease(next)) return false;
  if (!asString(dig(next, 'spec', 'holderIdentity'))) return false;
  const before = timeOf(dig(previous, 'spec', 'renewTime'));
  const after = timeOf(dig(next, 'spec', 'renewTime'));
  if (before === undefined || after === undefined || after <= before) return false;
  return sameJson(withoutRenewal(previous), withoutRenewal(next));
}
