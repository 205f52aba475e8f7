/**
 * Wire types (DTOs) of the HTTP API and the SSE stream, defined once as zod schemas. Route handlers build them,
 * the browser parses them with the same schemas, and incidents store them as-is. Only plain JSON.
 */
import { z } from 'zod';
import { SEVERITY_ORDER } from '@/lib/health/severity';
import { updateRecommendationsSchema } from './recommend-dto';

/** Severity, worst first. */
export const severitySchema = z.enum(SEVERITY_ORDER);

/** Reference to an object. */
export const objectRefSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
});

/** Evidence behind a finding (see lib/health/types.ts `Evidence`). */
export const evidenceSchema = z.object({
  kind: z.enum(['field', 'log', 'metric', 'object', 'condition']),
  label: z.string(),
  ref: objectRefSchema.optional(),
  path: z.string().optional(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]).optional(),
  unit: z.string().optional(),
  container: z.string().optional(),
  lines: z.array(z.string()).optional(),
  excerpt: z.unknown().optional(),
  at: z.string().optional(),
});

/** A finding as served. */
export const findingSchema = z.object({
  id: z.string(),
  detector: z.string(),
  severity: severitySchema,
  subject: objectRefSchema,
  title: z.string(),
  summary: z.string(),
  evidence: z.array(evidenceSchema),
  remediation: z.array(z.object({ title: z.string(), command: z.string().optional(), docUrl: z.string().optional() })),
  since: z.string().optional(),
  /** `predicted` for what an action would cause; absent (observed) in incidents stored before it existed. */
  basis: z.enum(['observed', 'predicted']).optional(),
  /** The same finding in oc's health-insight vocabulary (optional: incidents stored before it existed still load). */
  insight: z
    .object({
      level: z.enum(['Info', 'Warning', 'Error', 'Critical']),
      impactType: z.enum([
        'None',
        'Unknown',
        'API Availability',
        'Cluster Capacity',
        'Application Availability',
        'Application Outage',
        'Data Loss',
        'Update Speed',
        'Update Stalled',
      ]),
      scope: z.object({ type: z.enum(['ControlPlane', 'WorkerPool', 'Cluster']), resources: z.array(objectRefSchema) }),
      referenceUrl: z.string().optional(),
    })
    .optional(),
});

/** State of one watched source: expected failures are data, shown per source in the UI. */
export const sourceStateSchema = z.object({
  resource: z.string(),
  namespace: z.string().optional(),
  /**
   * `idle`: an active-tier source not read while the cluster is idle (waiting for activity), not a failure.
   * `not-applicable`: on OpenShift, refused in a namespace only other clusters have (see source-applicability.ts).
   */
  status: z.enum(['pending', 'synced', 'stale', 'forbidden', 'unauthorized', 'unreachable', 'idle', 'not-applicable']),
  since: z.string(),
  lastSyncAt: z.string().optional(),
  lastEventAt: z.string().optional(),
  /** The last failure not yet recovered from; on a `synced` source: a re-watch is being retried on fresh data. */
  error: z.object({ code: z.number().optional(), reason: z.string().optional(), message: z.string() }).optional(),
  /** When the next attempt is scheduled while waiting after a failure. */
  retryAt: z.string().optional(),
});

/**
 * A source behind as a fleet row lists it (see {@link rowSourcesSchema}): what the row shows and the membership's
 * waiting reason reads, without the timestamps that move with every event.
 */
export const rowSourceSchema = sourceStateSchema.pick({
  resource: true,
  namespace: true,
  status: true,
  since: true,
  error: true,
});

/**
 * How a fleet row's sources stand, without listing the ones that are up to date (a row per cluster of thousands, each
 * with twenty-odd sources, sent whole in `GET /api/clusters`): how many there are, how many are synced, each one that
 * is behind, and the earliest `since`. The cluster's health (`GET /api/clusters/{id}/health`) lists every source.
 */
export const rowSourcesSchema = z.object({
  /** Every source the cluster has: read, `idle` (deferred by its tier) or `not-applicable`. */
  total: z.number(),
  /** How many of them are `synced`. */
  synced: z.number(),
  /**
   * Each source that is behind (not synced, idle or not applicable: `sourceUpToDate` in `lib/health/tiers.ts` is
   * false), in the health's order.
   */
  behind: z.array(rowSourceSchema),
  /**
   * The earliest `since` among all the sources (absent without sources): how long a row none of whose sources synced
   * has waited.
   */
  since: z.string().optional(),
});

/**
 * Why a cluster reads its active tier: an update in progress, a node cordoned (a drain recreates pods), a finding of
 * warning or worse, a viewer.
 */
export const activityReasonSchema = z.enum(['updating', 'draining', 'finding', 'viewed']);

/**
 * Which tier of sources a cluster reads (see `lib/health/tiers.ts`): `always` (idle: cheap sources only) or `active`
 * (everything), since when, why, until when a cluster with no reason left stays active, and what an idle one does not
 * read.
 */
export const activitySchema = z.object({
  tier: z.enum(['always', 'active']),
  since: z.string(),
  reasons: z.array(activityReasonSchema),
  holdUntil: z.string().optional(),
  waiting: z.array(z.string()),
});

/** One ClusterVersion history entry. */
export const historyEntrySchema = z.object({
  version: z.string(),
  state: z.string(),
  startedTime: z.string().nullable(),
  completionTime: z.string().nullable(),
  image: z.string(),
});

/**
 * What a cluster is in a HyperShift fleet: `management` hosts control planes (HostedClusters), `hosted` is one of
 * them (seen from its management cluster, its own kubeconfig, or both), `standalone` is everything else.
 */
export const clusterRoleSchema = z.enum(['standalone', 'management', 'hosted']);

/**
 * Where the dashboard found a cluster: a kubeconfig context (`name` = the file), an ACM/OCM hub (`name` = the hub),
 * or a HyperShift management cluster (`name` = its fleet id).
 */
export const discoveredBySchema = z.object({
  kind: z.enum(['kubeconfig', 'hub', 'management']),
  name: z.string(),
});

/**
 * What the source that found a cluster says about reaching it, when that explains the row better than connection
 * errors: the hub reports it unavailable (`ManagedClusterConditionAvailable` False or Unknown) since `since`.
 */
export const reachabilitySchema = z.object({
  status: z.literal('hub-unavailable'),
  since: z.string(),
  message: z.string().optional(),
});

/** Identity and version facts of a cluster. `version` = latest Completed history entry, else desired. */
export const clusterInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: clusterRoleSchema.optional(),
  /** Fleet id of the management cluster (hosted clusters seen from one). */
  managedBy: z.string().optional(),
  discoveredBy: discoveredBySchema.optional(),
  reachability: reachabilitySchema.optional(),
  version: z.string().nullable(),
  desiredVersion: z.string().nullable(),
  channel: z.string().nullable(),
  history: z.array(historyEntrySchema),
});

const nodeProgressSchema = z.object({
  name: z.string(),
  assessment: z.string(),
  phase: z.string(),
  version: z.string(),
  estimate: z.string().optional(),
  message: z.string(),
});

/** `oc adm upgrade status` as JSON. */
export const updateProgressSchema = z.object({
  updating: z.boolean(),
  controlPlane: z.object({
    assessment: z.string(),
    targetVersion: z.string().nullable(),
    previousVersion: z.string().nullable(),
    /** Same version, new release image: a migration to multi-arch (oc: "X to Multi-Architecture", no estimate). */
    multiArchMigration: z.boolean().optional(),
    completionPercent: z.number(),
    operators: z.object({ updated: z.number(), updating: z.number(), waiting: z.number(), total: z.number() }),
    health: z.object({ healthy: z.number(), unavailable: z.number(), degraded: z.number() }),
    durationSeconds: z.number().nullable(),
    estimatedRemainingSeconds: z.number().nullable(),
    updatingOperators: z.array(z.string()).optional(),
    nodes: z.array(nodeProgressSchema).optional(),
  }),
  workerPools: z.array(
    z
      .object({
        name: z.string(),
        assessment: z.string(),
        completionPercent: z.number(),
        updatedNodes: z.number(),
        totalNodes: z.number(),
        nodes: z.array(nodeProgressSchema).optional(),
      })
      .passthrough(),
  ),
  insights: z.array(
    z
      .object({
        level: z.string(),
        impact: z.string(),
        message: z.string(),
        since: z.string().nullable(),
      })
      .passthrough(),
  ),
});

/** Where an update stands, worst first after `unknown`; see `lib/cluster/update-state`. */
export const updatePhaseSchema = z.enum([
  'unknown',
  'status-frozen',
  'stalled',
  'rolling-back',
  'updating-control-plane',
  'updating-workers',
  'idle',
]);

/**
 * One account of the update state, the same for the header, the fleet row, Before-you-update, the rollback guide and
 * incidents. Numbers are `null` when not known, never a default.
 */
export const updateStateSchema = z.object({
  phase: updatePhaseSchema,
  /** One line for headers and rows: `Updating workers to 4.16.9`, `Rolling back to 4.13.40`, `Installed 4.8.11`. */
  label: z.string(),
  /** Why the state is unknown (phase `unknown`): what is missing and why. */
  unknownReason: z.string().nullable(),
  /** The version being moved to (the request when ClusterVersion status is frozen). */
  targetVersion: z.string().nullable(),
  /** The newest completed version before the target. */
  fromVersion: z.string().nullable(),
  /** The target is older than the previous completed version. */
  rollingBack: z.boolean(),
  /** The newest history entry is the installation (one entry): nothing was ever updated. */
  installed: z.boolean(),
  /** Control plane: ClusterOperators at the target, in percent; null when not known. */
  controlPlane: z.object({ percent: z.number().nullable(), done: z.boolean() }).nullable(),
  /** Each worker pool: nodes at the target, of all; `unknown` nodes whose version cannot be told. */
  pools: z.array(z.object({ name: z.string(), updated: z.number(), total: z.number(), unknown: z.number() })),
  /** Time left; `remainingSeconds` only when honest (never 0 while anything updates), `note` says why not. */
  estimate: z.object({ remainingSeconds: z.number().nullable(), note: z.string() }),
  /** ClusterVersion status cannot be written: since when (last CVO status write) and why. */
  frozen: z.object({ since: z.string().nullable(), reason: z.string() }).nullable(),
  /** ClusterOperator versions as observed (what to trust while ClusterVersion status is frozen). */
  operatorVersions: z.array(z.object({ version: z.string(), operators: z.number() })).optional(),
  /** While ClusterVersion status is frozen: nodes per observed version (`unknown` when it cannot be told). */
  nodeVersions: z.array(z.object({ version: z.string(), nodes: z.number() })).optional(),
});

/** A hosted cluster's control plane as its management cluster shows it (HCP namespace, components, NodePools). */
export const hostedDetailsSchema = z.object({
  namespace: z.string(),
  name: z.string(),
  hcpNamespace: z.string(),
  platform: z.string().nullable(),
  conditions: z.array(
    z.object({ type: z.string(), status: z.string(), reason: z.string().optional(), message: z.string().optional() }),
  ),
  components: z.array(
    z.object({
      name: z.string(),
      version: z.string().nullable(),
      available: z.string().nullable(),
      rolloutComplete: z.string().nullable(),
      message: z.string(),
    }),
  ),
  pods: z.array(
    z.object({
      name: z.string(),
      ready: z.string(),
      status: z.string(),
      restarts: z.number(),
      component: z.string().nullable(),
    }),
  ),
  nodePools: z.array(
    z.object({
      name: z.string(),
      desiredNodes: z.number().nullable(),
      currentNodes: z.number().nullable(),
      version: z.string().nullable(),
      targetVersion: z.string().nullable(),
      updating: z.boolean(),
      message: z.string(),
    }),
  ),
});

/** `GET /api/clusters/{id}/health`. */
export const clusterHealthSchema = z.object({
  cluster: clusterInfoSchema,
  findings: z.array(findingSchema),
  updateProgress: updateProgressSchema.nullable(),
  /** The update state derived from the progress, history and findings; absent in health stored before it existed. */
  updateState: updateStateSchema.optional(),
  /** `oc adm upgrade recommend` as JSON plus our per-target predictions; null without a ClusterVersion (or stored before). */
  updateRecommendations: updateRecommendationsSchema.nullable().default(null),
  sources: z.array(sourceStateSchema),
  /** The tier of sources read; absent where there are no tiers (must-gather, incidents, health stored before). */
  activity: activitySchema.optional(),
  /** Present for hosted clusters seen from their management cluster. */
  hosted: hostedDetailsSchema.optional(),
  /** Present when the viewer's RBAC hides part of the cluster: how much, and which access would show it. */
  access: z
    .object({
      hiddenFindings: z.number(),
      /** False when the viewer may not read the ClusterVersion (version, history and update state are withheld). */
      clusterVersion: z.boolean(),
      /** Access that would show what is hidden, by kind only (`get clusterversions.config.openshift.io`, `list pods`). */
      missing: z.array(z.string()),
      /**
       * Derived views withheld because the viewer may not read every object they are built from, each with the access
       * (by kind) it lacks; a withheld view is null or absent above, and this says it is hidden, not missing.
       */
      hiddenViews: z
        .object({
          updateProgress: z.array(z.string()).optional(),
          updateRecommendations: z.array(z.string()).optional(),
          hosted: z.array(z.string()).optional(),
          rollbackPlan: z.array(z.string()).optional(),
        })
        .optional(),
    })
    .optional(),
});

/** One row of `GET /api/clusters`. */
export const clusterSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  desiredVersion: z.string().nullable(),
  updating: z.boolean(),
  /** The phase of {@link updateStateSchema}; `unknown` when the viewer may not read the ClusterVersion. */
  updatePhase: updatePhaseSchema.optional(),
  /** The update state's one-line label. */
  updateLabel: z.string().optional(),
  worstSeverity: severitySchema,
  /** The most severe finding (ties: by id), so a row says what is wrong without opening the cluster. */
  worstFinding: z
    .object({ id: z.string(), detector: z.string(), severity: severitySchema, title: z.string() })
    .optional(),
  /** Findings by severity. */
  findingCounts: z.object({ critical: z.number(), warning: z.number(), info: z.number() }),
  /** See {@link rowSourcesSchema}. */
  sources: rowSourcesSchema,
  /** See {@link activitySchema}. */
  activity: activitySchema.optional(),
  role: clusterRoleSchema,
  /** Fleet id of the management cluster, on hosted rows seen from one. */
  managedBy: z.string().optional(),
  /** The update channel (ClusterVersion `spec.channel`). */
  channel: z.string().nullable().optional(),
  discoveredBy: discoveredBySchema.optional(),
  reachability: reachabilitySchema.optional(),
});

/** The optional fields of a fleet row: what a `summary-patch` may `unset`. */
export const optionalSummaryFieldSchema = z.enum([
  'updatePhase',
  'updateLabel',
  'worstFinding',
  'activity',
  'managedBy',
  'channel',
  'discoveredBy',
  'reachability',
]);

/** A discovered cluster the dashboard does not watch (yet), and why: no cluster is silently missing. */
export const waitingClusterSchema = z.object({
  id: z.string(),
  name: z.string(),
  discoveredBy: discoveredBySchema,
  reason: z.string(),
  since: z.string(),
});

/** A fleet source (a kubeconfig file, a hub) and its last error, if reading it fails now. */
export const fleetSourceStatusSchema = z.object({
  kind: z.enum(['kubeconfig', 'hub']),
  name: z.string(),
  error: z.object({ message: z.string(), since: z.string() }).optional(),
  /**
   * True until the source's first list completed (a hub's ClusterProfiles or ManagedClusters, a kubeconfig's
   * contexts): its clusters are not known yet, which is not an empty fleet. Absent once listed.
   */
  listing: z.boolean().optional(),
});

/**
 * How many clusters the sources found, how many are watched, and each one that waits (without access provider,
 * token Secret, ...) with its reason. Waiting clusters count once, whatever the viewer may see.
 */
export const fleetMembershipSchema = z.object({
  discovered: z.number(),
  connected: z.number(),
  /** Rows none of whose sources is behind (`rowSynced`): with `discovered`, how far the fleet's first sync is. */
  synced: z.number(),
  waiting: z.array(waitingClusterSchema),
  /** Waiting clusters not listed by name (a logged-in viewer: who may see them cannot be asked yet). */
  waitingHidden: z.number().optional(),
  sources: z.array(fleetSourceStatusSchema),
});

/** `GET /api/clusters`. */
export const clusterListSchema = z.object({
  clusters: z.array(clusterSummarySchema),
  membership: fleetMembershipSchema.optional(),
});

/** A sample of a detector's named values at cluster time `t` (epoch ms). */
export const samplePointSchema = z.object({ t: z.number(), values: z.record(z.string(), z.number().nullable()) });

/** A recorded condition change (for timelines). */
export const transitionSchema = z.object({
  ref: objectRefSchema,
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  at: z.string(),
});

/** `GET /api/clusters/{id}/series`: per-detector samples (≤ 1,000 points each) and condition transitions. */
export const clusterSeriesSchema = z.object({
  clusterId: z.string(),
  now: z.number(),
  samples: z.record(z.string(), z.array(samplePointSchema)),
  transitions: z.array(transitionSchema),
});

/** Messages on the SSE stream (`event: <type>`, JSON `data`). */
export const streamMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('health'),
    clusterId: z.string(),
    health: clusterHealthSchema,
    summary: clusterSummarySchema,
  }),
  /** The fleet page's lighter stream (`?view=summary`): the row only. */
  z.object({ type: z.literal('summary'), clusterId: z.string(), summary: clusterSummarySchema }),
  /**
   * What changed in a fleet row since the stream's last message about that cluster (the summary view sends a full
   * `summary` first, then these): each changed field's new value in `set` (compared structurally: `sources` is sent
   * whole when any of its counts, behind sources or `since` changed), optional fields that are gone in `unset`. A row
   * that did not change sends nothing.
   */
  z.object({
    type: z.literal('summary-patch'),
    clusterId: z.string(),
    set: clusterSummarySchema.omit({ id: true }).partial().optional(),
    unset: z.array(optionalSummaryFieldSchema).optional(),
  }),
  z.object({
    type: z.literal('samples'),
    clusterId: z.string(),
    detector: z.string(),
    points: z.array(samplePointSchema),
  }),
  z.object({ type: z.literal('transitions'), clusterId: z.string(), transitions: z.array(transitionSchema) }),
]);

/** Error body of every API error response. */
export const apiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type SeverityDto = z.infer<typeof severitySchema>;
export type ObjectRefDto = z.infer<typeof objectRefSchema>;
export type FindingDto = z.infer<typeof findingSchema>;
export type SourceStateDto = z.infer<typeof sourceStateSchema>;
export type RowSourceDto = z.infer<typeof rowSourceSchema>;
export type RowSourcesDto = z.infer<typeof rowSourcesSchema>;
export type ActivityDto = z.infer<typeof activitySchema>;
export type ActivityReasonDto = z.infer<typeof activityReasonSchema>;
export type ClusterInfoDto = z.infer<typeof clusterInfoSchema>;
export type ClusterRoleDto = z.infer<typeof clusterRoleSchema>;
export type HostedDetailsDto = z.infer<typeof hostedDetailsSchema>;
export type UpdateProgressDto = z.infer<typeof updateProgressSchema>;
export type ClusterHealthDto = z.infer<typeof clusterHealthSchema>;
export type ClusterSummaryDto = z.infer<typeof clusterSummarySchema>;
export type UpdatePhaseDto = z.infer<typeof updatePhaseSchema>;
export type UpdateStateDto = z.infer<typeof updateStateSchema>;
export type ClusterListDto = z.infer<typeof clusterListSchema>;
export type DiscoveredByDto = z.infer<typeof discoveredBySchema>;
export type ReachabilityDto = z.infer<typeof reachabilitySchema>;
export type WaitingClusterDto = z.infer<typeof waitingClusterSchema>;
export type FleetMembershipDto = z.infer<typeof fleetMembershipSchema>;
export type SamplePointDto = z.infer<typeof samplePointSchema>;
export type TransitionDto = z.infer<typeof transitionSchema>;
export type ClusterSeriesDto = z.infer<typeof clusterSeriesSchema>;
export type StreamMessage = z.infer<typeof streamMessageSchema>;
export type SummaryPatchMessage = Extract<StreamMessage, { type: 'summary-patch' }>;
export type ApiErrorDto = z.infer<typeof apiErrorSchema>;
