import 'server-only';
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { MUST_GATHER_MAX_UPLOAD_BYTES } from '@/lib/api/must-gather-dto';
import { securityHeaders } from '@/lib/http/security-headers';
import { checkRequestUrl } from '@/lib/http/url-check';
import { authenticateApiCaller, refusedCallerResponse } from '@/server/auth/edge-auth';
import { VIEWER_HEADER, encodeViewer } from '@/server/auth/viewer-header';
import { badRequestJson } from '@/server/http/bad-request';
import { jsonError, tooManyRequests } from '@/server/http/responses';
import type { RequestHook, RequestHookResult } from '@/server/http/request-hooks';
import { formatBytes } from './limits';
import { analysisRefusalFor } from './must-gather-requests';

/** The upload route, which proxy.ts leaves to this guard: the proxy would hold its whole body in memory first. */
export const UPLOAD_PATH = '/api/must-gather';
/** A JSON `{path}` request is a few hundred bytes; anything much bigger is not one. */
export const MAX_JSON_REQUEST_BYTES = 64 * 1024;

function isTlsRequest(req: http.IncomingMessage): boolean {
  return (req.socket as { encrypted?: boolean }).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Answers without reading the body, and closes the connection so the rest of the body is never read either. */
async function refuse(res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader('Connection', 'close');
  res.setHeader('Content-Length', body.byteLength);
  res.statusCode = response.status;
  res.end(body);
}

/**
 * What the edge does for every other request, done for the upload path before a body is read: the URL checked (400),
 * a POST's declared size (413), the caller authenticated by the edge's own function (401/403/429/503), and an archive
 * upload checked against the analysis quota (429). An admitted request goes on to the route with the viewer in the edge's header,
 * its body still unread, so the route streams it to the analysis. Resolves whether the request goes on.
 */
export async function admitUpload(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  const tls = isTlsRequest(req);
  const security = securityHeaders({ nonce: Buffer.from(randomUUID()).toString('base64'), tls });
  for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const problem = q < 0 ? checkRequestUrl(url, '') : checkRequestUrl(url.slice(0, q), url.slice(q));
  if (problem) {
    await refuse(res, badRequestJson(problem));
    return false;
  }
  const post = (req.method ?? '').toUpperCase() === 'POST';
  const json = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() === 'application/json';
  const declared = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
  const limit = json ? MAX_JSON_REQUEST_BYTES : MUST_GATHER_MAX_UPLOAD_BYTES;
  if (post && declared !== undefined && !(declared <= limit)) {
    const message = `${json ? 'request' : 'upload'} larger than ${formatBytes(limit)}`;
    await refuse(res, jsonError(413, 'too_large', message));
    return false;
  }
  if (post && json && declared === undefined) {
    await refuse(res, jsonError(411, 'length_required', 'a JSON request needs a Content-Length'));
    return false;
  }
  const caller = await authenticateApiCaller(headersOf(req), tls);
  if (!caller.ok) {
    await refuse(res, refusedCallerResponse(caller));
    return false;
  }
  if (post && !json) {
    const refusal = analysisRefusalFor(caller.viewer);
    if (refusal) {
      await refuse(res, tooManyRequests(refusal.retryAfterSeconds, refusal.message));
      return false;
    }
  }
  req.headers[VIEWER_HEADER] = encodeViewer(caller.viewer);
  return true;
}

/**
 * The request hook (server/http/request-hooks.ts) for every request: it loses a client-sent viewer header (only the
 * edge and this guard set it), and a request for {@link UPLOAD_PATH} goes on only once {@link admitUpload} admits it.
 */
export const guardUpload: RequestHook = (req, res) => {
  delete req.headers[VIEWER_HEADER];
  if (new URL(req.url ?? '/', 'http://upload.invalid').pathname !== UPLOAD_PATH) return 'continue';
  return admitUpload(req, res).then(
    (admitted): RequestHookResult => (admitted ? 'continue' : 'handled'),
    async (error: unknown): Promise<RequestHookResult> => {
      console.error(`Update Health: upload guard: ${(error as Error).message}`);
      if (!res.headersSent) await refuse(res, jsonError(500, 'internal', 'the upload could not be admitted'));
      return 'handled';
    },
  );
};
