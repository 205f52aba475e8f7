import { z } from 'zod';
import { MUST_GATHER_MAX_UPLOAD_BYTES, mustGatherPathRequestSchema } from '@/lib/api/must-gather-dto';
import { unauthenticated, viewerOf } from '@/server/auth/viewer';
import { formatBytes } from '@/server/offline/limits';
import { analyzePathFor, analyzeUploadFor } from '@/server/offline/must-gather-requests';
import { jsonError, jsonOk, parseQuery, tooManyRequests } from '@/server/http/responses';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const uploadQuery = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^/\\\0]+$/, 'a file name, not a path')
    .default('upload.tar.gz'),
});
const ARCHIVE_TYPES = [
  'application/octet-stream',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-compressed-tar',
];

type Failure = Error & { code?: string; retryAfterSeconds?: number };

/** Expected failures as JSON; checked by name, as the error classes may come from another bundle. */
function failure(error: unknown) {
  const { name, code, message, retryAfterSeconds } = (error ?? {}) as Failure;
  if (name === 'MustGatherRefusal') {
    if (code === 'forbidden') return jsonError(403, 'forbidden', message);
    return tooManyRequests(retryAfterSeconds ?? 1, message);
  }
  if (name === 'MustGatherPathError') {
    return code === 'outside_root' ? jsonError(403, 'outside_root', message) : jsonError(404, 'not_found', message);
  }
  if (name === 'OfflineInputError') {
    if (code === 'limit') return jsonError(413, 'too_large', message);
    return jsonError(422, code === 'unsafe' ? 'unsafe_input' : 'bad_input', message);
  }
  throw error;
}

/** `POST /api/must-gather`: an archive body (`?name=<file name>`) or JSON `{path}` under the must-gather root. */
async function handlePost(request: Request) {
  const crossSite = rejectCrossSite(request);
  if (crossSite) return crossSite;
  const viewer = viewerOf(request);
  if (!viewer) return unauthenticated();
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  try {
    if (type === 'application/json') {
      const parsed = mustGatherPathRequestSchema.safeParse(await request.json().catch(() => undefined));
      if (!parsed.success)
        return jsonError(400, 'bad_request', parsed.error.issues.map((issue) => issue.message).join('; '));
      const result = await analyzePathFor(viewer, parsed.data.path);
      return jsonOk({ id: result.id, url: `/must-gather/${result.id}` }, 201);
    }
    if (!ARCHIVE_TYPES.includes(type)) {
      return jsonError(
        415,
        'unsupported_media_type',
        'send a .tar/.tar.gz archive as application/octet-stream, or JSON {"path": ...}',
      );
    }
    const query = parseQuery(uploadQuery, new URL(request.url).searchParams);
    if (!query.ok) return query.response;
    const length = Number(request.headers.get('content-length') ?? NaN);
    if (length > MUST_GATHER_MAX_UPLOAD_BYTES) {
      const limit = formatBytes(MUST_GATHER_MAX_UPLOAD_BYTES);
      return jsonError(413, 'too_large', `${query.data.name}: upload larger than ${limit}`);
    }
    if (!request.body) return jsonError(400, 'bad_request', 'empty upload');
    const result = await analyzeUploadFor(viewer, request.body, query.data.name);
    return jsonOk({ id: result.id, url: `/must-gather/${result.id}` }, 201);
  } catch (error) {
    return failure(error);
  }
}

export const POST = timedRoute('/api/must-gather', handlePost);
