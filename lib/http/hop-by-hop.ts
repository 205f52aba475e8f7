/**
 * Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection, so a proxy drops them instead of forwarding.
 * HTTP/2 pseudo-headers (`:path`, `:authority`, ...) describe the client's request to the proxy and are dropped too.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
]);

/** Whether a proxy forwards a header of this (lower-case) name. */
export function isEndToEndHeader(name: string): boolean {
  return !HOP_BY_HOP.has(name) && !name.startsWith(':');
}
