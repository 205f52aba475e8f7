/**
 * Wire type of `oc adm upgrade recommend` as JSON (`updateRecommendations` of the cluster health), plus our own
 * per-target predictions for "Before you update".
 */
import { z } from 'zod';

/** A condition as oc prints it (`Type=Status`, Reason, Message). */
export const recommendConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string(),
  message: z.string(),
});

/** One of oc's prechecks (`recommended/CriticalAlerts/<Alert>/<i>`, ...). */
export const precheckSchema = z.object({
  name: z.string(),
  status: z.string(),
  reason: z.string(),
  message: z.string(),
  /** The name `oc ... --accept` takes for a non-True precheck (the alert name, or `AlertNoTestData`). */
  acceptanceName: z.string().optional(),
});

/** A known risk of a conditional update, as the update service declares it. */
export const updateRiskSchema = z.object({
  name: z.string(),
  message: z.string(),
  url: z.string(),
  /** Matching rule types (`PromQL`, `Always`). */
  matchingRules: z.array(z.string()),
});

/** Our own prediction about a target, from the detectors and rollback checks (what oc cannot tell). */
export const targetPredictionSchema = z.object({
  check: z.string(),
  status: z.enum(['pass', 'warn', 'block', 'unknown']),
  title: z.string(),
  detail: z.string(),
});

/** One update target. `recommended` is false when oc would print a Reason for it. */
export const updateTargetSchema = z.object({
  version: z.string(),
  image: z.string(),
  recommended: z.boolean(),
  /** Status of the `Recommended` condition oc shows (`True` when there is no concern). */
  recommendedStatus: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
  releaseUrl: z.string().optional(),
  /** Listed in `status.conditionalUpdates` (else only in `availableUpdates`). */
  conditional: z.boolean(),
  risks: z.array(updateRiskSchema),
  /** Our own predictions about this target only (those holding for every target are in the top-level list). */
  predictions: z.array(targetPredictionSchema).optional(),
});

/** `oc adm upgrade recommend` as JSON. Updates newest first. */
export const updateRecommendationsSchema = z.object({
  currentVersion: z.string().nullable(),
  channel: z.string().nullable(),
  availableChannels: z.array(z.string()),
  upstream: z.string().nullable(),
  updates: z.array(updateTargetSchema),
  prechecks: z.array(precheckSchema),
  /** Why some prechecks could not run (oc: "Failed to check for at least some preconditions: ..."). */
  precheckError: z.string().optional(),
  clusterConditions: z.array(recommendConditionSchema),
  /** Our own predictions that hold for every target (sent once, not per target). */
  predictions: z.array(targetPredictionSchema).optional(),
});

export type RecommendConditionDto = z.infer<typeof recommendConditionSchema>;
export type PrecheckDto = z.infer<typeof precheckSchema>;
export type UpdateRiskDto = z.infer<typeof updateRiskSchema>;
export type TargetPredictionDto = z.infer<typeof targetPredictionSchema>;
export type UpdateTargetDto = z.infer<typeof updateTargetSchema>;
export type UpdateRecommendationsDto = z.infer<typeof updateRecommendationsSchema>;
