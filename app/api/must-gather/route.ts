import { viewerRoute } from '@/server/auth/api-route';
import { analyzeRequestFor, mustGatherFailure } from '@/server/offline/must-gather-post';

export const dynamic = 'force-dynamic';

/** `POST /api/must-gather`: an archive body (`?name=<file name>`) or JSON `{path}` under the must-gather root. */
export const POST = viewerRoute(
  '/api/must-gather',
  { failures: mustGatherFailure, status: 201 },
  ({ viewer, request }) => analyzeRequestFor(viewer, request),
);
