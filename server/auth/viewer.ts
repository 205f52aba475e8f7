import 'server-only';
import { jsonError } from '@/server/http/responses';
import { getAuthService } from './auth-service';
import type { Viewer } from './identity';
import { VIEWER_HEADER, decodeViewer } from './viewer-header';

/**
 * The viewer the edge authenticated for this request. Without the edge's header (a route reached some other way),
 * only `--auth none` falls back to the local operator; with login on, nobody.
 */
export function viewerOf(request: Request): Viewer | undefined {
  const viewer = decodeViewer(request.headers.get(VIEWER_HEADER));
  if (viewer) return viewer;
  return getAuthService().mode === 'none' ? { kind: 'local' } : undefined;
}

/** 401 for a route reached without an authenticated viewer. */
export function unauthenticated(): Response {
  return jsonError(
    401,
    'unauthorized',
    'log in: a session cookie or an `Authorization: Bearer <OpenShift token>` header is required',
  );
}
