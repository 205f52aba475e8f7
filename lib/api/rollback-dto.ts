/**
 * Wire types of the rollback guide (`GET /api/clusters/{id}/rollback-plan`), validated with zod at the edges.
 */
import { z } from 'zod';
import { evidenceSchema } from './dto';

/** A copyable remediation step (as in findings). */
export const remediationStepSchema = z.object({
  title: z.string(),
  command: z.string().optional(),
  docUrl: z.string().optional(),
});

/** Outcome of one rollback pre-flight check: `block` stops the plan, `warn` needs a human decision. */
export const rollbackCheckStatusSchema = z.enum(['pass', 'warn', 'block']);

/** Ids of the rollback pre-flight checks (SPEC §7), in the order the guide shows them. */
export const rollbackCheckIdSchema = z.enum([
  'cvo-rules',
  'capabilities',
  'featuregate',
  'catalog',
  'installs',
  'operators',
  'pod-latency',
]);

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
  /**
   * `roll-forward` when the target is newer than the desired version (an update, with an update's checks), `current`
   * when it is the desired version, else `rollback`.
   */
  direction: z.enum(['rollback', 'roll-forward', 'current']),
  current: z.object({
    version: z.string().nullable(),
    desiredVersion: z.string().nullable(),
    image: z.string().nullable(),
    progressing: z.boolean(),
  }),
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

export type RemediationStepDto = z.infer<typeof remediationStepSchema>;
export type RollbackCheckStatus = z.infer<typeof rollbackCheckStatusSchema>;
export type RollbackCheckId = z.infer<typeof rollbackCheckIdSchema>;
export type RollbackCheckDto = z.infer<typeof rollbackCheckSchema>;
export type RollbackCandidateDto = z.infer<typeof rollbackCandidateSchema>;
export type RollbackPlanDto = z.infer<typeof rollbackPlanSchema>;
export type RollbackTrackerStepDto = z.infer<typeof rollbackTrackerStepSchema>;
