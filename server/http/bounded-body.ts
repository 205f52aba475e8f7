import 'server-only';
import type { z } from 'zod';
import { jsonError } from './responses';

/** A request body over its limit (by Content-Length or as it streamed in). */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`request body larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/**
 * The request body as text, read no further than `maxBytes`: refused at once when Content-Length says more, and
 * cancelled as soon as a chunked body passes the limit, so a client cannot make the server hold an unbounded body.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads a JSON body of at most `maxBytes` and validates it: the data, or a ready response (413 over the limit,
 * 400 for a body that is not JSON or names every bad field), as {@link parseQuery} does for queries.
 */
export async function parseJsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  maxBytes: number,
): Promise<{ ok: true; data: z.infer<S> } | { ok: false; response: Response }> {
  let text: string;
  try {
    text = await readBodyText(request, maxBytes);
  } catch (error) {
    if (error instanceof Error && error.name === 'BodyTooLargeError') {
      return { ok: false, response: jsonError(413, 'too_large', error.message) };
    }
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, response: jsonError(400, 'bad_request', 'body: not valid JSON') };
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: parsed.data };
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');
  return { ok: false, response: jsonError(400, 'bad_request', detail) };
}
