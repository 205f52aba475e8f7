/**
 * `oc adm upgrade status` as plain JSON: the control plane, worker pools, nodes and update-health insights of an
 * OpenShift update. Produced by `computeUpdateProgress` (see `./update-progress`), served by the API unchanged.
 */

/**
 * Control-plane assessment, as `oc` words it. `Progressing - Slow` means past the estimate by up to 10 minutes,
 * `Stalled` by more; `Unknown` is used only when there is no ClusterVersion.
 */
export type ControlPlaneAssessment = 'Progressing' | 'Progressing - Slow' | 'Stalled' | 'Completed' | 'Unknown';

/** Assessment of a MachineConfigPool. `Empty` is a pool that selects no node. */
export type PoolAssessment = 'Pending' | 'Progressing' | 'Degraded' | 'Excluded' | 'Completed' | 'Empty';

/** Assessment of one node, worst first (the order `oc` sorts rows by). `Completed` = updated to the target. */
export type NodeAssessment =
  'Degraded' | 'Unavailable' | 'Progressing' | 'Excluded' | 'Outdated' | 'Completed' | 'Unknown';

/** Update phase of one node, derived from the machine-config daemon annotations. */
export type NodePhase = 'Draining' | 'Updating' | 'Rebooting' | 'Paused' | 'Pending' | 'Updated' | 'Unknown';

/** Level of an insight. `oc` also has `Critical` (critical alerts); it is reported here as `Error`. */
export type InsightLevel = 'Error' | 'Warning' | 'Info';

/** One node row. */
export type NodeProgress = {
  name: string;
  assessment: NodeAssessment;
  phase: NodePhase;
  /** OpenShift version of the node's current MachineConfig; empty when unknown (`oc` prints `?`). */
  version: string;
  /** `oc`'s rough time to completion: `+10m` (draining), `+5m`, `?` (unknown) or `-` (nothing to do). */
  estimate?: string;
  /** Why the node is unavailable or degraded; node names are shortened to `<node>`. */
  message: string;
};

/** A ClusterOperator that is moving to the target version (Progressing=True, not yet at the target). */
export type UpdatingOperator = {
  name: string;
  /** When its Progressing condition last changed (RFC 3339), when known. */
  since: string | null;
  reason: string;
  message: string;
};

/** The control-plane section. */
export type ControlPlaneProgress = {
  assessment: ControlPlaneAssessment;
  /** Version of the newest history entry; `null` when unknown. */
  targetVersion: string | null;
  /** Version of the previous history entry; `null` when unknown or when the target is the install. */
  previousVersion: string | null;
  /** The previous update never completed (`oc`: "from incomplete X"). */
  previousPartial: boolean;
  /** The only history entry is the target: this is an installation, not an update. */
  targetIsInstall: boolean;
  /**
   * The newest history entry keeps the previous version but has a new release image: a migration to the
   * multi-architecture payload (`oc`: "X to Multi-Architecture"). No time estimate is given for it.
   */
  multiArchMigration?: boolean;
  /** Platform ClusterOperators at the target version, in percent (rounded like `oc`). */
  completionPercent: number;
  operators: { updated: number; updating: number; waiting: number; total: number };
  /** `healthy` = total − unavailable − degraded; `degraded` counts only operators that are still available. */
  health: { healthy: number; unavailable: number; degraded: number };
  /** Start of the current update (RFC 3339). */
  startedAt: string | null;
  /** When it completed, for a completed update. */
  completedAt: string | null;
  /** Time since the update started (or its total length once completed), rounded like `oc`. */
  durationSeconds: number | null;
  /**
   * Estimated time left; `null` when N/A (more than 10 minutes past the estimate, or a multi-architecture migration)
   * or unknown; never negative.
   */
  estimatedRemainingSeconds: number | null;
  /** Estimated total length of the update (elapsed + remaining), truncated to minutes; `null` when not estimated. */
  estimatedDurationSeconds: number | null;
  /**
   * `oc`'s wording of the estimate: `1h12m`, `<10m`, `N/A; estimate duration was 1h24m`,
   * `N/A for Multi-Architecture Migration`; `null` when not shown.
   */
  estimateLabel: string | null;
  /** Names of the operators currently updating, in ClusterOperator list order. */
  updatingOperators: string[];
  updatingOperatorDetails: UpdatingOperator[];
  /** Control-plane nodes (the `master` pool), worst first. */
  nodes: NodeProgress[];
  /** Share of control-plane nodes at the target version; `null` without a `master` pool. */
  nodesCompletionPercent: number | null;
};

/** One worker pool (every MachineConfigPool except `master`). */
export type WorkerPoolProgress = {
  name: string;
  assessment: PoolAssessment;
  /** Updated nodes in percent; 100 for an empty pool (nothing to update). */
  completionPercent: number;
  /** Nodes that are not outdated (`oc` COMPLETION column numerator). */
  updatedNodes: number;
  totalNodes: number;
  availableNodes?: number;
  progressingNodes?: number;
  drainingNodes?: number;
  degradedNodes?: number;
  excludedNodes?: number;
  outdatedNodes?: number;
  nodes: NodeProgress[];
};

/** The object an insight is about. `group` is '' for core kinds. */
export type InsightSubject = {
  group: string;
  kind: 'ClusterVersion' | 'ClusterOperator' | 'Node' | 'MachineConfigPool' | 'Alert';
  name: string;
  namespace?: string;
};

/** The condition an insight was derived from, when there is one. */
export type InsightCondition = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
};

/** One row of `oc`'s "Update Health" section, ordered worst level first, then newest first. */
export type UpdateInsight = {
  /** Stable across evaluations: kind of insight plus subject. */
  id: string;
  level: InsightLevel;
  /** `API Availability`, `Update Stalled`, `Update Speed`, `None`, `Unknown` (alerts), ... */
  impact: string;
  message: string;
  description: string;
  /**
   * When the underlying problem started (RFC 3339, with milliseconds when the source has them, e.g. an alert's
   * `activeAt`); `null` when unknown (`oc` prints `-`).
   */
  since: string | null;
  scope: 'ControlPlane' | 'WorkerPool' | 'Cluster';
  subject?: InsightSubject;
  /** Documentation or runbook link. */
  reference?: string;
  condition?: InsightCondition;
};

/** The whole report. */
export type UpdateProgress = {
  /** Progressing=True on the ClusterVersion, or a non-empty worker pool not fully updated. */
  updating: boolean;
  /** The clock used (RFC 3339). */
  evaluatedAt: string;
  controlPlane: ControlPlaneProgress;
  workerPools: WorkerPoolProgress[];
  /** Empty when not updating (`oc` prints only "The cluster is not updating."). */
  insights: UpdateInsight[];
};

/** A firing (or pending) Prometheus alert, as the engine passes it in. */
export type Alert = {
  name: string;
  state: 'firing' | 'pending' | 'inactive' | string;
  severity: string;
  /** When the alert became active (RFC 3339). */
  startsAt: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
};
