import { NextResponse, type NextRequest } from 'next/server';
import { checkRequestUrl } from '@/lib/http/url-check';
import { securityHeaders } from '@/lib/http/security-headers';
import { badRequestJson, badRequestPage } from '@/server/http/bad-request';

/**
 * Every request passes here first: a URL no route can decode is answered 400 (JSON under /api, the product's error
 * page otherwise) before Next's router would throw on it, and every response gets the security headers with a fresh
 * script nonce that the page render picks up from the request's Content-Security-Policy header.
 */
export function proxy(request: NextRequest): Response {
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const tls = request.nextUrl.protocol === 'https:' || request.headers.get('x-forwarded-proto') === 'https';
  const headers = securityHeaders({ nonce, tls, dev: process.env.NODE_ENV === 'development' });
  const { pathname, search } = rawPathAndQuery(request.url);
  const problem = checkRequestUrl(pathname, search);
  let response: Response;
  if (problem) {
    response = pathname.startsWith('/api/') ? badRequestJson(problem) : badRequestPage(problem, nonce);
  } else {
    const forwarded = new Headers(request.headers);
    forwarded.set('content-security-policy', headers['Content-Security-Policy']);
    forwarded.set('x-nonce', nonce);
    response = NextResponse.next({ request: { headers: forwarded } });
  }
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Path and query exactly as sent (the URL parser keeps percent-escapes, even malformed ones, as they are). */
function rawPathAndQuery(url: string): { pathname: string; search: string } {
  const afterHost = url.replace(/^[a-z]+:\/\/[^/]*/i, '');
  const q = afterHost.indexOf('?');
  return q < 0 ? { pathname: afterHost, search: '' } : { pathname: afterHost.slice(0, q), search: afterHost.slice(q) };
}
