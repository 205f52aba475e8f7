import 'server-only';
import { forView, type StreamView } from '@/lib/live/summary-stream';
import { getFleet } from '@/server/engine/fleet';
import { jsonError } from '@/server/http/responses';
import { mapSource, sseResponse } from '@/server/http/sse';
import type { Viewer } from './identity';
import { streamFor, unseenClusters } from './visibility';

/**
 * The live stream of the given clusters (all when none) as the viewer may see it, shaped for `view` (with the
 * clusters in `detail` sent whole in a summary stream: the tabs of one browser share a stream); 404 naming every
 * cluster asked for that the viewer cannot see, hidden and unknown alike, as on every other route.
 */
export async function liveStreamFor(
  viewer: Viewer,
  ids: readonly string[],
  view: StreamView,
  signal: AbortSignal,
  detail: readonly string[] = [],
): Promise<Response> {
  const fleet = getFleet();
  const asked = [...new Set([...ids, ...detail])];
  const unknown = await unseenClusters(viewer, asked, (id) => fleet.get(id));
  if (unknown.length > 0)
    return jsonError(404, 'not_found', `no cluster named ${unknown.map((id) => `"${id}"`).join(', ')}`);
  const whole = new Set(detail);
  // The clusters whose page is open read their active tier while the stream lasts.
  const viewed = view === 'detail' ? ids : detail;
  const source = streamFor(viewer, fleet.streamSource(ids, viewed), (id) => fleet.get(id));
  return sseResponse(
    mapSource(source, (message) => forView(message, view, whole)),
    signal,
  );
}
