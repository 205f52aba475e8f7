/**
 * Wire types of incidents (`POST /api/incidents`, `GET /api/incidents/{id}`), validated with zod at the edges.
 */
import { z } from 'zod';
import { defaultIncidentTitle } from '@/lib/incidents/incident-title';
import { clusterHealthSchema, clusterSeriesSchema } from './dto';

/** Longest incident title a creator may give (characters). */
export const INCIDENT_TITLE_MAX = 200;
/** Longest incident note (characters): a few paragraphs of context, not a log. */
export const INCIDENT_NOTE_MAX = 2000;

/** `POST /api/incidents` body. `from`/`to` bound the frozen chart window (cluster time, epoch ms). */
export const createIncidentSchema = z
  .object({
    clusterId: z.string().min(1).max(253),
    from: z.number().int().nonnegative().optional(),
    to: z.number().int().nonnegative().optional(),
    /** Blank or absent: the worst finding's title. */
    title: z.string().max(INCIDENT_TITLE_MAX).optional(),
    /** Free text, shown as text. */
    note: z.string().max(INCIDENT_NOTE_MAX).optional(),
  })
  .strict()
  .refine(
    (body) => body.from === undefined || body.to === undefined || body.from <= body.to,
    'from must not be after to',
  );

/** `POST /api/incidents` answer. */
export const createdIncidentSchema = z.object({ id: z.string(), url: z.string() });

/** One redaction applied to an incident: where, why, and the placeholder written instead. */
export const redactionEntrySchema = z.object({ path: z.string(), reason: z.string(), placeholder: z.string() });

/** Who created an incident: a logged-in user, or the local operator of a dashboard running without login. */
export const incidentAuthorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), name: z.string() }),
  z.object({ kind: z.literal('local') }),
]);

const storedIncidentSchema = z.object({
  id: z.string(),
  /** Server wall-clock time of creation (RFC 3339). */
  createdAt: z.string(),
  /** The creating user's name (readers' access keys on it); null for the local operator, who has no identity. */
  createdBy: z.string().nullable(),
  /** Absent in incidents stored before authors were recorded: read from `createdBy`. */
  author: incidentAuthorSchema.optional(),
  /** Absent in incidents stored before titles: read as the default title. */
  title: z.string().optional(),
  /** The finding a default title was taken from (a reader who cannot see it gets the cluster's title); null: none. */
  titleFindingId: z.string().nullable().optional(),
  note: z.string().default(''),
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

/**
 * `GET /api/incidents/{id}`: a frozen, redacted view of one cluster with its title, note and author. Incidents stored
 * before titles and authors load with both filled in (the default title, the author named by `createdBy`).
 */
export const incidentSchema = storedIncidentSchema.transform((stored) => {
  const fallback =
    stored.title === undefined ? defaultIncidentTitle(stored.health.findings, stored.cluster.name) : undefined;
  return {
    ...stored,
    title: stored.title ?? fallback!.title,
    titleFindingId: stored.titleFindingId ?? fallback?.findingId ?? null,
    author:
      stored.author ??
      (stored.createdBy === null ? { kind: 'local' as const } : { kind: 'user' as const, name: stored.createdBy }),
  };
});

export type CreateIncidentDto = z.infer<typeof createIncidentSchema>;
export type CreatedIncidentDto = z.infer<typeof createdIncidentSchema>;
export type RedactionEntryDto = z.infer<typeof redactionEntrySchema>;
export type IncidentDto = z.output<typeof incidentSchema>;
export type IncidentAuthorDto = z.infer<typeof incidentAuthorSchema>;
