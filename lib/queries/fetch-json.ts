import type { z } from 'zod';
import { apiErrorSchema } from '@/lib/api/dto';
import { ApiError } from './api-error';
import { revealingReviver } from '@/lib/view/reveal-controls';

/**
 * GETs `url` and parses the JSON reply with `schema`. Error replies become an {@link ApiError} carrying the server's
 * code and message; a reply that does not match the contract becomes `ApiError(code 'bad_response')`.
 */
export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(`Request to ${url} failed: ${err instanceof Error ? err.message : String(err)}`, 0, 'network');
  }
  const body: unknown = await res
    .text()
    .then((text) => JSON.parse(text, revealingReviver) as unknown)
    .catch(() => undefined);
  if (!res.ok) {
    const parsed = apiErrorSchema.safeParse(body);
    if (parsed.success) throw new ApiError(parsed.data.error.message, res.status, parsed.data.error.code);
    throw new ApiError(`${url} answered HTTP ${res.status}`, res.status, 'http_error');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ApiError(`${url} answered an unexpected shape: ${parsed.error.message}`, res.status, 'bad_response');
  return parsed.data;
}
