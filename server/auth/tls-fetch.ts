import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';

/**
 * A `fetch` that trusts an extra CA bundle beside the system roots (the cluster's own CA signs the OAuth server's
 * certificate in most installations), for the OAuth library's metadata and token requests. Never follows redirects.
 */
export function tlsFetch(extraCa: string | undefined, timeoutMs = 10_000): typeof fetch {
  const ca = extraCa ? [...rootCertificates, extraCa] : undefined;
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const headers = Object.fromEntries(
      new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined)).entries(),
    );
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const send = url.protocol === 'http:' ? http.request : https.request;
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, { method: init.method ?? 'GET', headers, ca, timeout: timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = res.statusCode ?? 502;
          resolve(
            new Response([101, 204, 205, 304].includes(status) ? null : Buffer.concat(chunks), {
              status,
              headers: responseHeaders,
            }),
          );
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer from ${url.origin} within ${timeoutMs} ms`)));
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.end(body);
    });
  }) as typeof fetch;
}
