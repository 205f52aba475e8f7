import { z } from 'zod';
import { mustGatherPathRequestSchema } from '@/lib/api/must-gather-dto';
import { mustGatherRoot } from '@/server/env';
import { OfflineInputError } from '@/server/offline/errors';
import { MAX_UPLOAD_BYTES, MustGatherPathError, analyzeServerPath, analyzeUpload } from '@/server/offline/must-gather-service';
import { mustGatherResults } from '@/server/offline/result-store';
import { jsonError, jsonOk, parseQuery } from '@/server/http/responses';
import { rejectCrossSite } from '@/server/http/same-origin';
import { timedRoute } from '@/server/observability/timed-route';

export const dynamic = 'force-dynamic';

const uploadQuery = z.object({ name: z.string().min(1).max(255).regex(/^[^/\\\0]+$/, 'a file name, not a path').default('upload.tar.gz') });
const ARCHIVE_TYPES = ['application/octet-stream', 'application/gzip', 'application/x-gzip', 'application/x-tar', 'application/x-compressed-tar'];

function failure(error: unknown) {
  if (error instanceof MustGatherPathError) {
    return error.code === 'outside_root' ? jsonError(403, 'outside_root', error.message) : jsonError(404, 'not_found', error.message);
  }
  if (error instanceof OfflineInputError) {
    if (error.code === 'limit') return jsonError(413, 'too_large', error.message);
    return jsonError(422, error.code === 'unsafe' ? 'unsafe_input' : 'bad_input', error.message);
  }
  throw error;
}

/** `POST /api/must-gather`: an archive body (`?name=<file name>`) or JSON `{path}` under the must-gather root. */
async function handlePost(request: Request) {
  const crossSite = rejectCrossSite(request);
  if (crossSite) return crossSite;
  const type = (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  try {
    if (type === 'application/json') {
      const parsed = mustGatherPathRequestSchema.safeParse(await request.json().catch(() => undefined));
      if (!parsed.success) return jsonError(400, 'bad_request', parsed.error.issues.map((issue) => issue.message).join('; '));
      const result = await analyzeServerPath(mustGatherResults(), mustGatherRoot(), parsed.data.path);
      return jsonOk({ id: result.id, url: `/must-gather/${result.id}` }, 201);
    }
    if (!ARCHIVE_TYPES.includes(type)) {
      return jsonError(415, 'unsupported_media_type', 'send a .tar/.tar.gz archive as application/octet-stream, or JSON {"path": ...}');
    }
    const query = parseQuery(uploadQuery, new URL(request.url).searchParams);
    if (!query.ok) return query.response;
    const length = Number(request.headers.get('content-length') ?? NaN);
    if (length > MAX_UPLOAD_BYTES) return jsonError(413, 'too_large', `${query.data.name}: upload larger than the ${MAX_UPLOAD_BYTES} byte limit`);
    if (!request.body) return jsonError(400, 'bad_request', 'empty upload');
    const result = await analyzeUpload(mustGatherResults(), request.body, query.data.name);
    return jsonOk({ id: result.id, url: `/must-gather/${result.id}` }, 201);
  } catch (error) {
    return failure(error);
  }
}

export const POST = timedRoute('/api/must-gather', handlePost);
