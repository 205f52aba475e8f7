import 'server-only';
import type { z } from 'zod';

/** A value as base64url JSON, for a header or cookie. */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** The value of a base64url JSON header or cookie, or undefined when missing, malformed or not of `schema`. */
export function decodeBase64Json<S extends z.ZodType>(
  text: string | null | undefined,
  schema: S,
): z.infer<S> | undefined {
  if (!text) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
