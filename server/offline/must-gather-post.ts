import 'server-only';
import { z } from 'zod';
import { MUST_GATHER_MAX_UPLOAD_BYTES, mustGatherPathRequestSchema } from '@/lib/api/must-gather-dto';
import type { Viewer } from '@/server/auth/identity';
import { jsonError, parseQuery, tooManyRequests } from '@/server/http/responses';
import { formatBytes } from './limits';
import { analyzePathFor, analyzeUploadFor } from './must-gather-requests';

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

/** Expected must-gather failures as JSON, undefined for any other error; checked by name (bundles may differ). */
export function mustGatherFailure(error: unknown): Response | undefined {
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
  return undefined;
}

/**
 * `POST /api/must-gather`: an archive body (`?name=<file name>`) or JSON `{path}` under the must-gather root,
 * analyzed for the viewer; where to read the result, or a ready response for a request that cannot be analyzed.
 */
export async function analyzeRequestFor(
  viewer: Viewer,
  request: Request,
): Promise<{ id: string; url: string } | Response> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json') {
    const parsed = mustGatherPathRequestSchema.safeParse(await request.json().catch(() => undefined));
    if (!parsed.success)
      return jsonError(400, 'bad_request', parsed.error.issues.map((issue) => issue.message).join('; '));
    const result = await analyzePathFor(viewer, parsed.data.path);
    return { id: result.id, url: `/must-gather/${result.id}` };
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
  return { id: result.id, url: `/must-gather/${result.id}` };
}
