/**
 * The health model: what detectors read (a {@link Snapshot}) and what they produce ({@link Finding}s and samples).
 * Everything here is plain JSON so it can cross the wire and be stored in incidents unchanged.
 */
import type { Condition, KubeObject, ObjectRef } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { Alert, UpdateProgress } from '@/lib/health/update-progress/types';

/** Severity of a finding, worst first. `ok` states a check that passed and is worth showing. */
export type Severity = 'critical' | 'warning' | 'info' | 'ok';

/** Stable ids of the detectors. */
export type DetectorId =
  | 'featuregate-coverage'
  | 'status-write-rejection'
  | 'catalog-replicas'
  | 'pod-setup-latency'
  | 'install-settling'
  | 'update-progress'
  | 'hosted-control-plane'
  | 'node-drain';

/**
 * One piece of evidence behind a finding. `kind` tells the UI how to render it:
 * - `field`: a field path on `ref` and its value(s);
 * - `log`: log lines of a pod container (`ref` is the pod);
 * - `metric`: a metric value (name in `label`, number in `value`, optional `unit`);
 * - `object`: an excerpt of an object (`excerpt` is a trimmed JSON object);
 * - `condition`: a condition of `ref` (also used for transition history entries).
 */
export interface Evidence {
  kind: 'field' | 'log' | 'metric' | 'object' | 'condition';
  label: string;
  ref?: ObjectRef;
  path?: string;
  value?: string | number | boolean | null | string[];
  unit?: string;
  container?: string;
  lines?: string[];
  excerpt?: unknown;
  at?: string;
}

/** One remediation step; `command` is a copyable shell line (usually `oc ...`). */
export interface RemediationStep {
  title: string;
  command?: string;
  docUrl?: string;
}

/** oc's impact types (the Update Status API's `impact.type`). */
export type InsightImpactType =
  | 'None'
  | 'Unknown'
  | 'API Availability'
  | 'Cluster Capacity'
  | 'Application Availability'
  | 'Application Outage'
  | 'Data Loss'
  | 'Update Speed'
  | 'Update Stalled';

/** Where an insight applies, in oc's terms. */
export type InsightScopeType = 'ControlPlane' | 'WorkerPool' | 'Cluster';

/** A finding in oc's health-insight vocabulary, beside our severity, so it reads (and exports) like oc's insights. */
export interface FindingInsight {
  level: 'Info' | 'Warning' | 'Error' | 'Critical';
  impactType: InsightImpactType;
  scope: { type: InsightScopeType; resources: ObjectRef[] };
  /** Remediation reference (documentation, runbook or upstream bug). */
  referenceUrl?: string;
}

/** A finding: the unit the UI lists, charts and freezes into incidents. `id` is stable across evaluations. */
export interface Finding {
  id: string;
  detector: DetectorId;
  severity: Severity;
  subject: ObjectRef;
  title: string;
  summary: string;
  evidence: Evidence[];
  remediation: RemediationStep[];
  /**
   * The onset of the problem (RFC 3339), when known: the earliest symptom in the evidence (first crash, first
   * condition transition, first rejected write), not when the detector first looked.
   */
  since?: string;
  /**
   * `predicted`: what would happen on an action (a rollback, the next write), not a problem observed now. Absent:
   * observed. Predictions sort after observed findings of the same severity.
   */
  basis?: 'observed' | 'predicted';
  /** oc's vocabulary for the same finding; filled from the detector's {@link Detector.insight} unless set here. */
  insight?: FindingInsight;
}

/**
 * A change of one condition of one object, as observed by the watcher. Conditions hold only their latest
 * message, so this history is what lets detectors recover a root cause that was later overwritten.
 */
export interface ConditionTransition {
  ref: ObjectRef;
  type: string;
  status: Condition['status'];
  reason?: string;
  message?: string;
  /** When the change was observed (RFC 3339). */
  at: string;
}

/** Log lines of one container, newest last. */
export interface LogExcerpt {
  ref: ObjectRef;
  container: string;
  lines: string[];
}

/** A result of probing an HTTP endpoint of a pod (e.g. the catalogd catalog API). */
export interface ProbeResult {
  ref: ObjectRef;
  url: string;
  status: number | null;
  error?: string;
  at: string;
}

/** One sample of a numeric series: `t` is epoch milliseconds. */
export interface SeriesPoint {
  t: number;
  v: number | null;
}

/** Quantile series for pod-setup latency (failure mode D), in seconds. */
export interface LatencySeries {
  source: 'prometheus' | 'scrape';
  quantiles: Record<string, SeriesPoint[]>;
  perNode?: Record<string, Record<string, SeriesPoint[]>>;
  batch?: { size?: SeriesPoint[]; config?: Record<string, number> };
}

/** Everything a detector may read. Objects are projections (managedFields dropped) keyed by resource. */
export interface Snapshot {
  objects: Partial<Record<ResourceName, readonly KubeObject[]>>;
  transitions: ConditionTransition[];
  logs: LogExcerpt[];
  probes: ProbeResult[];
  latency?: LatencySeries;
  /** Firing and pending Prometheus alerts, when an alerts source answers (update-progress insights). */
  alerts?: Alert[];
  /**
   * True when the cluster is idle and the active tier (cluster-wide pods, logs, metrics, alerts) is not read (see
   * `lib/health/tiers.ts`): a detector whose inputs are not read says nothing rather than "no source".
   */
  idle?: boolean;
  /**
   * True while the cluster's metrics source runs and has not answered once: pod-setup latency is not known yet,
   * which is not "no metrics source".
   */
  metricsUnread?: boolean;
}

/** Tunable thresholds; detectors receive them, never read them from the environment. */
export interface HealthConfig {
  /** p99 pod-setup latency above which D warns / is critical, in seconds. */
  latencyWarningSeconds: number;
  latencyCriticalSeconds: number;
  /** ClusterVersion status with no CVO write for longer than this is stale (B corroboration), in minutes. */
  statusStaleMinutes: number;
}

/** Defaults used when the operator does not configure thresholds. */
export const DEFAULT_HEALTH_CONFIG: HealthConfig = {
  latencyWarningSeconds: 0.5,
  latencyCriticalSeconds: 3,
  statusStaleMinutes: 10,
};

/** The clock and configuration a detector runs with. `now` is epoch milliseconds. */
export interface DetectorContext {
  now: number;
  config: HealthConfig;
}

/**
 * Views a detector computed on its way to its findings, returned so that nothing computes them again: the served
 * update progress is the `update-progress` detector's.
 */
export interface DerivedViews {
  updateProgress?: UpdateProgress;
}

/** What one detector evaluation returns: findings, plus named numeric samples the engine charts over time. */
export interface DetectorOutput {
  findings: Finding[];
  samples?: Record<string, number | null>;
  derived?: DerivedViews;
}

/**
 * When a source is read: on every cluster (`always`), or only while the cluster is active (updating, with a finding,
 * or looked at). See `lib/health/tiers.ts`.
 */
export type SourceTier = 'always' | 'active';

/** A resource (optionally narrowed to a namespace, or to one object by name) a detector needs watched. */
export interface ResourceNeed {
  resource: ResourceName;
  namespace?: string;
  /**
   * Only the object with this name (a `metadata.name` field selector), e.g. the one ClusterVersion CRD out of
   * hundreds of CRDs. Absent: every object of the resource (in `namespace` when given).
   */
  name?: string;
  /**
   * An API only some clusters serve (HyperShift's, on management clusters): watched once discovery lists it, and
   * not a pending source where it is absent.
   */
  optional?: boolean;
  /** Its tier when not the default of `lib/health/tiers.ts` (active for cluster-wide pods, else always). */
  tier?: SourceTier;
}

/** Log lines a detector needs: containers of pods matching a label selector in a namespace. */
export interface LogNeed {
  namespace: string;
  labelSelector: string;
  container: string;
  tailLines: number;
  /** Its tier when not the default (logs are read on the active tier). */
  tier?: SourceTier;
}

/** A detector: a pure function of a snapshot and a context, plus a declaration of its inputs. */
export interface Detector {
  id: DetectorId;
  title: string;
  /** oc's impact type, scope and reference for this detector's findings. */
  insight: { impactType: InsightImpactType; scopeType: InsightScopeType; referenceUrl: string };
  needs: ResourceNeed[];
  logs?: LogNeed[];
  detect(snapshot: Snapshot, context: DetectorContext): DetectorOutput;
}
