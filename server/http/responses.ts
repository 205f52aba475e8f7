import 'server-only';
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import type { ApiErrorDto } from '@/lib/api/dto';

/** A JSON error body with a stable code; every API error goes through here. */
export function jsonError(status: number, code: string, message: string): NextResponse<ApiErrorDto> {
  return NextResponse.json({ error: { code, message } }, { status, headers: { 'Cache-Control': 'no-store' } });
}

/** `429 Too Many Requests` with `Retry-After`, for a caller over a rate limit or quota. */
export function tooManyRequests(retryAfterSeconds: number, message: string): NextResponse<ApiErrorDto> {
  const response = jsonError(429, 'too_many_requests', message);
  response.headers.set('Retry-After', String(Math.max(1, Math.ceil(retryAfterSeconds))));
  return response;
}

/** A JSON success body that is never cached (it is live data). */
export function jsonOk<T>(body: T, status = 200): NextResponse<T> {
  return NextResponse.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

/** Parses query parameters with a zod schema: the data, or a ready 400 response naming every bad parameter. */
export function parseQuery<S extends z.ZodType>(
  schema: S,
  params: URLSearchParams,
): { ok: true; data: z.infer<S> } | { ok: false; response: NextResponse<ApiErrorDto> } {
  const parsed = schema.safeParse(Object.fromEntries(params));
  if (parsed.success) return { ok: true, data: parsed.data };
  const detail = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`).join('; ');
  return { ok: false, response: jsonError(400, 'bad_request', detail) };
}

/** 404 for a path under /api that no route serves: JSON like every other API error, not the HTML page. */
export function noSuchApi(request: Request): NextResponse<ApiErrorDto> {
  return jsonError(404, 'not_found', `no API at ${request.method} ${new URL(request.url).pathname}`);
}
