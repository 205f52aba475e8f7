import 'server-only';
import type http from 'node:http';
import type { RequestHookResult } from './request-hooks';

/**
 * The header a route sets on a body it compressed itself, naming the encoding. Next drops `Content-Encoding` from a
 * route's answer (its body may have come from a `fetch` that decoded it), and would then compress the compressed
 * body again; {@link restorePreEncoded} puts `Content-Encoding` back under this name's value.
 */
export const PRE_ENCODED_HEADER = 'x-update-health-content-encoding';

/** The paths whose answers may come compressed by their route (the fleet list: `server/http/cluster-list-json.ts`). */
const PRE_ENCODED_PATHS: ReadonlySet<string> = new Set(['/api/clusters']);

/**
 * A request hook (server/http/request-hooks.ts): on a path whose route compresses its own answer, turns the route's
 * {@link PRE_ENCODED_HEADER} into `Content-Encoding` as Next copies the route's headers. Next's compression step sees
 * an encoded answer and leaves it alone. It never answers, so the request always goes on.
 */
export function restorePreEncoded(req: http.IncomingMessage, res: http.ServerResponse): RequestHookResult {
  if (!PRE_ENCODED_PATHS.has((req.url ?? '').split('?')[0])) return 'continue';
  const { setHeader, appendHeader } = res;
  const encoded = (name: string) => name.toLowerCase() === PRE_ENCODED_HEADER;
  res.setHeader = function (name, value) {
    return setHeader.call(this, encoded(name) ? 'Content-Encoding' : name, value);
  };
  res.appendHeader = function (name, value) {
    return encoded(name) ? setHeader.call(this, 'Content-Encoding', value) : appendHeader.call(this, name, value);
  };
  return 'continue';
}
