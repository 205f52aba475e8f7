/**
 * Wire types (DTOs) of the HTTP API and the SSE stream, defined once as zod schemas. Route handlers build them,
 * the browser parses them with the same schemas, and incidents store them as-is. Only plain JSON.
 */
import { z } from 'zod';

/** Severity, worst first. */
export const severitySchema = z.enum(['critical', 'warning', 'info', 'ok']);

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
});

/** State of one watched source: expected failures are data, shown per source in the UI. */
export const sourceStateSchema = z.object({
  resource: z.string(),
  namespace: z.string().optional(),
  status: z.enum(['pending', 'synced', 'stale', 'forbidden', 'unauthorized', 'unreachable']),
  since: z.string(),
  lastSyncAt: z.string().optional(),
  lastEventAt: z.string().optional(),
  error: z.object({ code: z.number().optional(), reason: z.string().optional(), message: z.string() }).optional(),
});

/** One ClusterVersion history entry. */
export const historyEntrySchema = z.object({
  version: z.string(),
  state: z.string(),
  startedTime: z.string().nullable(),
  completionTime: z.string().nullable(),
  image: z.string(),
});

/** Identity and version facts of a cluster. `version` = latest Completed history entry, else desired. */
export const clusterInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
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
    completionPercent: z.number(),
    operators: z.object({ updated: z.number(), updating: z.number(), waiting: z.number(), total: z.number() }),
    health: z.object({ healthy: z.number(), unavailable: z.number(), degraded: z.number() }),
    durationSeconds: z.number().nullable(),
    estimatedRemainingSeconds: z.number().nullable(),
    updatingOperators: z.array(z.string()).optional(),
    nodes: z.array(nodeProgressSchema).optional(),
  }),
  workerPools: z.array(z.object({
    name: z.string(),
    assessment: z.string(),
    completionPercent: z.number(),
    updatedNodes: z.number(),
    totalNodes: z.number(),
    nodes: z.array(nodeProgressSchema).optional(),
  }).passthrough()),
  insights: z.array(z.object({
    level: z.string(),
    impact: z.string(),
    message: z.string(),
    since: z.string().nullable(),
  }).passthrough()),
});

/** `GET /api/clusters/{id}/health`. */
export const clusterHealthSchema = z.object({
  cluster: clusterInfoSchema,
  findings: z.array(findingSchema),
  updateProgress: updateProgressSchema.nullable(),
  sources: z.array(sourceStateSchema),
});

/** One row of `GET /api/clusters`. */
export const clusterSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string().nullable(),
  desiredVersion: z.string().nullable(),
  updating: z.boolean(),
  worstSeverity: severitySchema,
  sources: z.array(sourceStateSchema),
});

/** `GET /api/clusters`. */
export const clusterListSchema = z.object({ clusters: z.array(clusterSummarySchema) });

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
  z.object({ type: z.literal('health'), clusterId: z.string(), health: clusterHealthSchema, summary: clusterSummarySchema }),
  z.object({ type: z.literal('samples'), clusterId: z.string(), detector: z.string(), points: z.array(samplePointSchema) }),
  z.object({ type: z.literal('transitions'), clusterId: z.string(), transitions: z.array(transitionSchema) }),
]);

/** Error body of every API error response. */
export const apiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type SeverityDto = z.infer<typeof severitySchema>;
export type FindingDto = z.infer<typeof findingSchema>;
export type SourceStateDto = z.infer<typeof sourceStateSchema>;
export type ClusterInfoDto = z.infer<typeof clusterInfoSchema>;
export type UpdateProgressDto = z.infer<typeof updateProgressSchema>;
export type ClusterHealthDto = z.infer<typeof clusterHealthSchema>;
export type ClusterSummaryDto = z.infer<typeof clusterSummarySchema>;
export type ClusterListDto = z.infer<typeof clusterListSchema>;
export type SamplePointDto = z.infer<typeof samplePointSchema>;
export type TransitionDto = z.infer<typeof transitionSchema>;
export type ClusterSeriesDto = z.infer<typeof clusterSeriesSchema>;
export type StreamMessage = z.infer<typeof streamMessageSchema>;
export type ApiErrorDto = z.infer<typeof apiErrorSchema>;

/** A copyable remediation step (as in findings). */
export const remediationStepSchema = z.object({ title: z.string(), command: z.string().optional(), docUrl: z.string().optional() });

/** Outcome of one rollback pre-flight check: `block` stops the plan, `warn` needs a human decision. */
export const rollbackCheckStatusSchema = z.enum(['pass', 'warn', 'block']);

/** Ids of the rollback pre-flight checks (SPEC §7), in the order the guide shows them. */
export const rollbackCheckIdSchema = z.enum(['cvo-rules', 'capabilities', 'featuregate', 'catalog', 'installs', 'operators', 'pod-latency']);

/** One pre-flight check of a rollback plan. */
export const rollbackCheckSchema = z.object({
  id: rollbackCheckIdSchema,
  status: rollbackCheckStatusSchema,
  title: z.string(),
  detail: z.string(),
  evidence: z.array(evidenceSchema),
  remediation: z.array(remediationStepSchema),
});

/** A version the guide offers as a target (a ClusterVersion history entry). */
export const rollbackCandidateSchema = z.object({
  version: z.string(),
  image: z.string(),
  state: z.string(),
  /** The entry the CVO treats as "the previous version" (the only supported rollback target). */
  previous: z.boolean(),
});

/** `GET /api/clusters/{id}/rollback-plan?to=<version>`: pre-flight checks and the commands to run. */
export const rollbackPlanSchema = z.object({
  clusterId: z.string(),
  /** Cluster time (epoch ms) the plan was computed at. */
  computedAt: z.number(),
  target: z.object({
    version: z.string(),
    /** Release image by digest, from the ClusterVersion history; null for a version typed by the user. */
    image: z.string().nullable(),
    inHistory: z.boolean(),
    /** Release whose CRD capability enums apply (`4.13`, `master`); null when the table has no data for it. */
    release: z.string().nullable(),
  }),
  current: z.object({ version: z.string().nullable(), desiredVersion: z.string().nullable(), image: z.string().nullable(), progressing: z.boolean() }),
  acceptCrossMinorRisk: z.boolean(),
  allowed: z.boolean(),
  checks: z.array(rollbackCheckSchema),
  /** The exact `oc` lines to copy, in order. Empty when no command could honestly work (see `notes`). */
  commands: z.array(z.string()),
  /** Why each flag is there, or why there is no command. */
  notes: z.array(z.string()),
  candidates: z.array(rollbackCandidateSchema),
  /** What the tracker compares against once the rollback starts. */
  baseline: z.object({
    historyLength: z.number(),
    firstHistoryStartedTime: z.string().nullable(),
    findingIds: z.array(z.string()),
  }),
});

/** A step of the live rollback tracker. */
export const rollbackTrackerStepSchema = z.object({
  id: z.enum(['requested', 'history-entry', 'operators', 'completed', 'findings']),
  status: z.enum(['pending', 'active', 'done', 'failed']),
  title: z.string(),
  detail: z.string(),
});

/** `POST /api/incidents` body. `from`/`to` bound the frozen chart window (cluster time, epoch ms). */
export const createIncidentSchema = z.object({
  clusterId: z.string().min(1).max(253),
  from: z.number().int().nonnegative().optional(),
  to: z.number().int().nonnegative().optional(),
}).strict().refine((body) => body.from === undefined || body.to === undefined || body.from <= body.to, 'from must not be after to');

/** `POST /api/incidents` answer. */
export const createdIncidentSchema = z.object({ id: z.string(), url: z.string() });

/** One redaction applied to an incident: where, why, and the placeholder written instead. */
export const redactionEntrySchema = z.object({ path: z.string(), reason: z.string(), placeholder: z.string() });

/** `GET /api/incidents/{id}`: a frozen, redacted view of one cluster. */
export const incidentSchema = z.object({
  id: z.string(),
  /** Server wall-clock time of creation (RFC 3339). */
  createdAt: z.string(),
  /** Who created it; null while the dashboard has no user identity. */
  createdBy: z.string().nullable(),
  cluster: z.object({
    id: z.string(),
    name: z.string(),
    /** ClusterVersion `spec.clusterID`, the cluster's stable identity. */
    clusterID: z.string().nullable(),
    version: z.string().nullable(),
    desiredVersion: z.string().nullable(),
  }),
  /** Cluster time (epoch ms) when frozen, and the chart window. */
  capturedAt: z.number(),
  window: z.object({ from: z.number(), to: z.number() }),
  health: clusterHealthSchema,
  series: clusterSeriesSchema,
  /** Redacted evidence objects (the findings' subjects and evidence refs). */
  objects: z.array(z.record(z.string(), z.unknown())),
  redaction: z.object({ rules: z.array(z.string()), entries: z.array(redactionEntrySchema) }),
});

export type RemediationStepDto = z.infer<typeof remediationStepSchema>;
export type RollbackCheckStatus = z.infer<typeof rollbackCheckStatusSchema>;
export type RollbackCheckId = z.infer<typeof rollbackCheckIdSchema>;
export type RollbackCheckDto = z.infer<typeof rollbackCheckSchema>;
export type RollbackCandidateDto = z.infer<typeof rollbackCandidateSchema>;
export type RollbackPlanDto = z.infer<typeof rollbackPlanSchema>;
export type RollbackTrackerStepDto = z.infer<typeof rollbackTrackerStepSchema>;
export type CreateIncidentDto = z.infer<typeof createIncidentSchema>;
export type CreatedIncidentDto = z.infer<typeof createdIncidentSchema>;
export type RedactionEntryDto = z.infer<typeof redactionEntrySchema>;
export type IncidentDto = z.infer<typeof incidentSchema>;

/**
 * One quantile point of pod-setup latency in seconds (`v` null: no data, e.g. no pod was set up in the window),
 * with the classic bucket it was interpolated in: `lower` < true value ≤ `upper` (`upper` null = `+Inf`).
 */
export const latencyPointSchema = z.object({
  t: z.number(),
  v: z.number().nullable(),
  lower: z.number().nullable().optional(),
  upper: z.number().nullable().optional(),
});

/** `GET /api/clusters/{id}/metrics/pod-setup-latency`: p50/p95/p99 over time, overall and per node. */
export const podSetupLatencySchema = z.object({
  clusterId: z.string(),
  source: z.enum(['prometheus', 'scrape', 'none']),
  metric: z.string(),
  /** Cluster time, epoch ms. */
  from: z.number(),
  to: z.number(),
  /** Seconds between points, and the rate() window the quantiles were computed over. */
  step: z.number(),
  window: z.number(),
  /** Keys `p50`, `p95`, `p99`. */
  quantiles: z.record(z.string(), z.array(latencyPointSchema)),
  perNode: z.record(z.string(), z.record(z.string(), z.array(latencyPointSchema))),
  /** The histogram's finite bucket edges (seconds). */
  bucketEdges: z.array(z.number()),
  /** Pod batching (downstream-only metrics): mean batch size over time and the config gauge, when reported. */
  batch: z.object({
    size: z.array(z.object({ t: z.number(), v: z.number().nullable() })),
    config: z.record(z.string(), z.number()),
  }).optional(),
  /** Why there is no (or only partial) data; errors of the source are data, not HTTP failures. */
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});

export type LatencyPointDto = z.infer<typeof latencyPointSchema>;
export type PodSetupLatencyDto = z.infer<typeof podSetupLatencySchema>;
