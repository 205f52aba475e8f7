import 'server-only';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkMetricsUrl, guardedLookup, type UrlPolicy } from './safe-url';

/** Options of one GET to a metrics API. */
export interface MetricsGetOptions {
  policy: UrlPolicy;
  /** Bearer token; sent only to the checked URL's host (redirects are never followed). */
  token?: string;
  /** PEM CA bundle for https. */
  ca?: string;
  timeoutMs?: number;
  maxBytes?: number;
}

/** Why a GET produced no usable answer. */
export type MetricsGetErrorKind = 'refused' | 'redirect' | 'timeout' | 'network' | 'too-large' | 'http' | 'invalid';

/** The outcome of a GET: the parsed JSON body with its status, or an error as data. */
export type MetricsGetResult =
  | { ok: true; status: number; body: unknown }
  | { ok: false; kind: MetricsGetErrorKind; message: string; status?: number };

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/**
 * GETs a JSON document from a Prometheus-compatible API. Never throws and never follows redirects (a 3xx is an
 * error naming the target), so the bearer token only ever reaches the configured host; forbidden addresses are
 * refused before and after DNS resolution; the whole exchange is bounded in time and size.
 */
export function getMetricsJson(rawUrl: string, options: MetricsGetOptions): Promise<MetricsGetResult> {
  const checked = checkMetricsUrl(rawUrl, options.policy);
  if (!checked.ok) return Promise.resolve({ ok: false, kind: 'refused', message: checked.reason });
  const url = checked.url;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: MetricsGetResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result);
    };
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.token) headers.Authorization = `Bearer ${options.token}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'GET',
        headers,
        lookup: guardedLookup(options.policy) as never,
        ...(url.protocol === 'https:' && options.ca ? { ca: options.ca } : {}),
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          const location = String(res.headers.location ?? '');
          let target = location;
          try {
            target = new URL(location, url).host;
          } catch {
            /* keep the raw header */
          }
          return finish({
            ok: false,
            kind: 'redirect',
            status,
            message: `redirect to ${target.slice(0, 200)} not followed (redirects are refused)`,
          });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes)
            return finish({ ok: false, kind: 'too-large', status, message: `answer larger than ${maxBytes} bytes` });
          chunks.push(chunk);
        });
        res.on('error', (error) => finish({ ok: false, kind: 'network', status, message: error.message }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            finish({ ok: true, status, body: JSON.parse(text) });
          } catch {
            finish(
              status >= 400
                ? { ok: false, kind: 'http', status, message: `HTTP ${status}: ${text.slice(0, 200)}` }
                : { ok: false, kind: 'invalid', status, message: 'the answer is not JSON' },
            );
          }
        });
      },
    );
    const timer = setTimeout(
      () => finish({ ok: false, kind: 'timeout', message: `no complete answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        kind: error.code === 'EREFUSEDADDRESS' ? 'refused' : 'network',
        message: error.message,
      }),
    );
    req.end();
  });
}
