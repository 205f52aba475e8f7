import 'server-only';
import type http from 'node:http';
import type { RequestHookResult } from './request-hooks';

/**
 * The header a route sets on a body it compressed itself, naming the encoding. Next drops `Content-Encoding` from a
 * route's answer (its body may have come from a `fetch` that decoded it), and would then compress the compressed
 * body again; {@link restorePreEncoded} puts `Content-Encoding` back under this name's value.
 */
export const PRE_ENCODED_HEADER = 'x-update-health-content-encoding';

/**
 * A request hook (server/http/request-hooks.ts): turns a route's {@link PRE_ENCODED_HEADER} into `Content-Encoding`
 * as Next copies the route's headers (the fleet list's route compresses its own answer:
 * `server/http/cluster-list-json.ts`). Next's compression step then sees an encoded answer and leaves it alone. It
 * never answers, so the request always goes on.
 */
export function restorePreEncoded(_req: http.IncomingMessage, res: http.ServerResponse): RequestHookResult {
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
