import type { z } from 'zod';
import { apiErrorSchema } from '@/lib/api/dto';
import { ApiError } from './api-error';

/**
 * POSTs `body` as JSON to a same-origin `url` and parses the reply with `schema`; error replies become an
 * {@link ApiError} carrying the server's code and message.
 */
export async function postJson<S extends z.ZodType>(url: string, body: unknown, schema: S): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(`Request to ${url} failed: ${err instanceof Error ? err.message : String(err)}`, 0, 'network');
  }
  const reply: unknown = await res.json().catch(() => undefined);
  if (!res.ok) {
    const parsed = apiErrorSchema.safeParse(reply);
    if (parsed.success) throw new ApiError(parsed.data.error.message, res.status, parsed.data.error.code);
    throw new ApiError(`${url} answered HTTP ${res.status}`, res.status, 'http_error');
  }
  const parsed = schema.safeParse(reply);
  if (!parsed.success)
    throw new ApiError(`${url} answered an unexpected shape: ${parsed.error.message}`, res.status, 'bad_response');
  return parsed.data;
}
