import { z } from 'zod';
import { viewerRoute } from '@/server/auth/api-route';
import { liveStreamFor } from '@/server/auth/live-stream';

export const dynamic = 'force-dynamic';

const clusterIds = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9.,]*[a-z0-9])?$/i, 'a comma-separated list of cluster ids')
  .optional();

const querySchema = z.object({
  clusters: clusterIds.transform((ids) => ids?.split(',').filter(Boolean) ?? []),
  /** `summary`: fleet rows only (the fleet page); `detail` (default): health, samples and transitions. */
  view: z.enum(['detail', 'summary']).default('detail'),
  /** In a `summary` stream, the clusters sent whole (another tab of the browser shows their page). */
  detail: clusterIds.transform((ids) => ids?.split(',').filter(Boolean) ?? []),
});

/** The live stream (server-sent events) of the listed clusters, or of all, as the viewer may see them. */
export const GET = viewerRoute('/api/stream', { query: querySchema }, ({ viewer, query, request }) =>
  liveStreamFor(viewer, query.clusters, query.view, request.signal, query.detail),
);
