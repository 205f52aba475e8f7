import { z } from 'zod';
import { clusterHealthSchema, clusterSeriesSchema } from './dto';

/** `GET /api/must-gather/{id}`: one offline analysis, shown read-only in the cluster view. */
export const mustGatherResultSchema = z.object({
  id: z.string(),
  /** The archive's file name or the path that was opened. */
  label: z.string(),
  source: z.enum(['upload', 'path']),
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
