/**
 * Wire types of incidents (`POST /api/incidents`, `GET /api/incidents/{id}`), validated with zod at the edges.
 */
import { z } from 'zod';
import { clusterHealthSchema, clusterSeriesSchema } from './dto';

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

export type CreateIncidentDto = z.infer<typeof createIncidentSchema>;
export type CreatedIncidentDto = z.infer<typeof createdIncidentSchema>;
export type RedactionEntryDto = z.infer<typeof redactionEntrySchema>;
export type IncidentDto = z.infer<typeof incidentSchema>;
