/**
 * Wire types of the finding history: `GET /api/clusters/{id}/timeline` and `GET /api/fleet/updates`. Times are
 * RFC 3339 strings; `null` means "not yet" (an open finding, an ongoing update), never "unknown".
 */
import { z } from 'zod';
import { objectRefSchema, severitySchema } from './dto';

/** One recorded change of an open finding: severity changed, or its evidence (a digest of it) changed. */
export const findingChangeSchema = z.object({
  kind: z.enum(['severity', 'evidence']),
  at: z.string(),
  severity: severitySchema,
  /** Short digest of the evidence after the change (the history keeps digests, not the evidence). */
  digest: z.string(),
});

/** One episode of a finding: opened, changed, resolved (or still open). */
export const timelineEntrySchema = z.object({
  findingId: z.string(),
  detector: z.string(),
  subject: objectRefSchema,
  title: z.string(),
  /** Severity at the end of the asked window (the last change at or before `to`). */
  severity: severitySchema,
  /** Severity when opened. */
  openedSeverity: severitySchema,
  openedAt: z.string(),
  resolvedAt: z.string().nullable(),
  changes: z.array(findingChangeSchema),
});

/** `GET /api/clusters/{id}/timeline?from=&to=`: every finding episode overlapping the window, oldest first. */
export const timelineSchema = z.object({
  clusterId: z.string(),
  from: z.string(),
  to: z.string(),
  entries: z.array(timelineEntrySchema),
  /** Episodes withheld because the viewer may not read every object they were built from. */
  hiddenEntries: z.number(),
});

/**
 * Query of the timeline: RFC 3339 times or epoch milliseconds; `to` defaults to now, `from` to a day before `to`.
 * `at` asks for the moment `at` (the same as `from=at&to=at`).
 */
export const timelineQuerySchema = z
  .object({
    from: z.string().optional(),
    to: z.string().optional(),
    at: z.string().optional(),
  })
  .transform((query, context) => {
    const parse = (name: 'from' | 'to' | 'at'): number | undefined => {
      const raw = query[name];
      if (raw === undefined || raw === '') return undefined;
      const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
      if (!Number.isFinite(ms)) {
        context.addIssue({ code: 'custom', path: [name], message: 'not an RFC 3339 time or epoch milliseconds' });
        return undefined;
      }
      return ms;
    };
    const at = parse('at');
    const from = at ?? parse('from');
    const to = at ?? parse('to');
    if (from !== undefined && to !== undefined && from > to)
      context.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to' });
    return { from, to };
  });

/** One phase of an update: the control plane or a worker pool; times null where not known. */
export const updatePhaseSpanSchema = z.object({
  name: z.string(),
  kind: z.enum(['control-plane', 'pool']),
  /** Percent done now (ongoing updates), or 100 for a completed one; null when not known. */
  percent: z.number().nullable(),
  done: z.boolean(),
});

/** One update of one cluster, from ClusterVersion `status.history`. */
export const clusterUpdateSchema = z.object({
  clusterId: z.string(),
  clusterName: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  startedAt: z.string(),
  /** Null while the update is ongoing. */
  completedAt: z.string().nullable(),
  ongoing: z.boolean(),
  /** Seconds from start to completion, or to now while ongoing. */
  durationSeconds: z.number(),
  /** History state: Completed, or Partial (ongoing, or abandoned for a newer target). */
  state: z.string(),
  phases: z.array(updatePhaseSpanSchema),
  /** Findings open at some moment of the update (from the finding history), as the viewer may see them. */
  findings: z.array(
    z.object({ findingId: z.string(), detector: z.string(), title: z.string(), severity: severitySchema }),
  ),
  /** Slower than the fleet's p95 for the same from→to (ongoing: already longer than it). */
  slowerThanP95: z.boolean(),
});

/** Durations of one from→to version pair across the fleet. */
export const updatePairStatsSchema = z.object({
  from: z.string().nullable(),
  to: z.string(),
  clusters: z.number(),
  completed: z.number(),
  ongoing: z.number(),
  p50Seconds: z.number().nullable(),
  p95Seconds: z.number().nullable(),
});

/** `GET /api/fleet/updates?since=`. */
export const fleetUpdatesSchema = z.object({
  since: z.string().nullable(),
  now: z.string(),
  updates: z.array(clusterUpdateSchema),
  pairs: z.array(updatePairStatsSchema),
  /** The fleet-wide p95 of completed updates (every pair), the bar ongoing updates are held to without a pair p95. */
  fleetP95Seconds: z.number().nullable(),
});

/** Query of `GET /api/fleet/updates`: `since` (RFC 3339 or epoch ms), `format=csv` for CSV instead of JSON. */
export const fleetUpdatesQuerySchema = z
  .object({ since: z.string().optional(), format: z.enum(['json', 'csv']).optional() })
  .transform((query, context) => {
    if (query.since === undefined || query.since === '') return { since: null, format: query.format };
    const since = /^\d+$/.test(query.since) ? Number(query.since) : Date.parse(query.since);
    if (!Number.isFinite(since))
      context.addIssue({ code: 'custom', path: ['since'], message: 'not an RFC 3339 time or epoch milliseconds' });
    return { since: Number.isFinite(since) ? since : null, format: query.format };
  });

export type FindingChangeDto = z.infer<typeof findingChangeSchema>;
export type TimelineEntryDto = z.infer<typeof timelineEntrySchema>;
export type TimelineDto = z.infer<typeof timelineSchema>;
export type ClusterUpdateDto = z.infer<typeof clusterUpdateSchema>;
export type UpdatePairStatsDto = z.infer<typeof updatePairStatsSchema>;
export type FleetUpdatesDto = z.infer<typeof fleetUpdatesSchema>;
