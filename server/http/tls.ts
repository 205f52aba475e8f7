import 'server-only';

/** Whether the browser reached us over TLS (directly, or through a proxy that says so). */
export function isTls(request: Request): boolean {
  return new URL(request.url).protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
}
