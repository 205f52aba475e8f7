import { z } from 'zod';
import { clusterHealthSchema, clusterSeriesSchema } from './dto';

/**
 * Largest must-gather upload accepted, in bytes (compressed). Next's proxy holds a request body in memory while it
 * arrives, so this is sized to the container's memory, not to the biggest must-gather there is.
 */
export const MUST_GATHER_MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

/**
 * The non-resource URL a user must be allowed to `get` (SubjectAccessReview on the auth cluster) to open paths on
 * the server, and to read every user's must-gather results and incidents: the dashboard's must-gather administrators.
 */
export const MUST_GATHER_ADMIN_PATH = '/update-health/must-gather/server-paths';

/** Prefix of the cluster id a must-gather is assessed under: no fleet member's id, and never confused with one. */
export const MUST_GATHER_CLUSTER_PREFIX = 'must-gather:';

/** The cluster id of a must-gather analysis: its own id space, so an incident from it names no fleet cluster. */
export function mustGatherClusterId(resultId: string): string {
  return `${MUST_GATHER_CLUSTER_PREFIX}${resultId}`;
}

/** Whether a cluster id is a must-gather analysis's rather than a fleet member's. */
export function isMustGatherClusterId(clusterId: string): boolean {
  return clusterId.startsWith(MUST_GATHER_CLUSTER_PREFIX);
}

/** `GET /api/must-gather/{id}`: one offline analysis, shown read-only in the cluster view. */
export const mustGatherResultSchema = z.object({
  id: z.string(),
  /** The archive's file name or the path that was opened. */
  label: z.string(),
  source: z.enum(['upload', 'path']),
  /** Who uploaded or opened it (the only user, with admins, who may read it); null for the local operator. */
  createdBy: z.string().nullable(),
  /** When the analysis ran (RFC 3339, server clock). */
  analyzedAt: z.string(),
  /** Cluster time the must-gather was analyzed as of (RFC 3339), and where it came from. */
  clusterTime: z.string(),
  clusterTimeSource: z.enum(['option', 'timestamp', 'objects', 'clock']),
  health: clusterHealthSchema,
  series: clusterSeriesSchema,
  warnings: z.array(z.string()),
  stats: z.object({ entries: z.number(), parsedBytes: z.number(), objects: z.number() }),
});

/** `POST /api/must-gather` answer: where the result lives. */
export const mustGatherCreatedSchema = z.object({ id: z.string(), url: z.string() });

/** Body of `POST /api/must-gather` when opening a path on the server. */
export const mustGatherPathRequestSchema = z.object({ path: z.string().min(1, 'path is empty').max(4096) });

export type MustGatherResultDto = z.infer<typeof mustGatherResultSchema>;
export type MustGatherCreatedDto = z.infer<typeof mustGatherCreatedSchema>;
