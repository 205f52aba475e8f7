import 'server-only';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import { securityHeaders } from '@/lib/http/security-headers';
import { jsonError } from './responses';
import type { EdgeStep } from './edge';
import type { RequestHook } from './request-hooks';

/** The methods the dashboard answers; anything else gets 405 with `Allow` and the security headers. */
export const SUPPORTED_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const ALLOW = SUPPORTED_METHODS.join(', ');
const MESSAGE = 'this method is not supported';

/** The edge step: a method no route answers is refused before authentication. */
export const rejectUnsupportedMethod: EdgeStep = ({ request }) => {
  if (SUPPORTED_METHODS.includes(request.method.toUpperCase())) return undefined;
  const response = jsonError(405, 'method_not_allowed', MESSAGE);
  response.headers.set('Allow', ALLOW);
  return response;
};

/**
 * TRACE, TRACK and CONNECT never reach the edge: the Fetch `Request` Next builds for it refuses them, and Next answers
 * 500 without our headers. This request hook (server/http/request-hooks.ts) answers them, and any other unsupported
 * method, on the Node server itself before Next sees the request.
 */
export const refuseUnsupportedMethodOnServer: RequestHook = (req, res) => {
  if (SUPPORTED_METHODS.includes((req.method ?? '').toUpperCase())) return 'continue';
  answerUnsupported(req, res);
  return 'handled';
};

/** 405 with `Allow` and the security headers, for a request no route may see. */
export function answerUnsupported(req: http.IncomingMessage, res: http.ServerResponse): void {
  const tls =
    (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
  const headers = securityHeaders({ nonce: Buffer.from(randomUUID()).toString('base64'), tls });
  const body = JSON.stringify({ error: { code: 'method_not_allowed', message: MESSAGE } });
  res.writeHead(405, {
    ...headers,
    Allow: ALLOW,
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
