import 'server-only';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/**
 * Which addresses a configured metrics URL may reach. Prometheus URLs are user-chosen server-side fetches (SSRF):
 * - only `http:` and `https:`; no credentials inside the URL;
 * - never link-local addresses (169.254.0.0/16 — the cloud metadata services — and fe80::/10), the AWS IPv6
 *   metadata address, unspecified, broadcast or multicast addresses, nor metadata host names;
 * - loopback (127.0.0.0/8, ::1, `localhost`) only when the configuration says `allowLoopback: true`;
 * - checked on the address actually connected to (after DNS), so a name cannot rebind to a forbidden address.
 * Private (RFC 1918) addresses stay allowed: on-premises routes to thanos-querier resolve to them.
 */
export interface UrlPolicy {
  allowLoopback: boolean;
}

const METADATA_HOSTS = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

function ipv4Octets(address: string): number[] | undefined {
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p <= 255) ? parts : undefined;
}

function ipv4Reason(address: string, policy: UrlPolicy): string | undefined {
  const o = ipv4Octets(address);
  if (!o) return `"${address}" is not an IPv4 address`;
  if (o[0] === 169 && o[1] === 254) return `${address} is link-local (cloud metadata services live there)`;
  if (o[0] === 100 && o[1] === 100 && o[2] === 100 && o[3] === 200) return `${address} is a cloud metadata address`;
  if (o[0] === 0) return `${address} is an unspecified address`;
  if (o[0] >= 224) return `${address} is a multicast or reserved address`;
  if (o[0] === 127 && !policy.allowLoopback)
    return `${address} is loopback; allow it explicitly with "allowLoopback": true`;
  return undefined;
}

/** The 8 groups of an IPv6 address (with `::` expanded and a trailing dotted quad converted). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const o = ipv4Octets(quad[1]);
    if (!o) return undefined;
    text = `${text.slice(0, -quad[1].length)}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  const groups = text.includes('::') ? [...h, ...new Array(Math.max(0, 8 - h.length - t.length)).fill(0), ...t] : h;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** Why connecting to `address` (an IP literal) is refused under `policy`; `undefined` when allowed. */
export function forbiddenAddressReason(address: string, policy: UrlPolicy): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(bare);
  if (family === 4) return ipv4Reason(bare, policy);
  const g = family === 6 ? ipv6Groups(bare) : undefined;
  if (!g) return `"${address}" is not an IP address`;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) reach IPv4 hosts.
  if (zeros(5) && g[5] === 0xffff) return ipv4Reason(v4(g[6], g[7]), policy);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return ipv4Reason(v4(g[6], g[7]), policy);
  if (zeros(7) && g[7] === 0) return `${address} is an unspecified address`;
  if (zeros(7) && g[7] === 1)
    return policy.allowLoopback ? undefined : `${address} is loopback; allow it explicitly with "allowLoopback": true`;
  if (zeros(6) && (g[6] !== 0 || g[7] > 1)) return ipv4Reason(v4(g[6], g[7]), policy);
  if ((g[0] & 0xffc0) === 0xfe80) return `${address} is link-local`;
  if ((g[0] & 0xff00) === 0xff00) return `${address} is multicast`;
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254)
    return `${address} is a cloud metadata address`;
  return undefined;
}

/** A checked URL, or why it is refused. */
export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Static checks of a metrics URL (scheme, embedded credentials, literal addresses, metadata host names). */
export function checkMetricsUrl(raw: string, policy: UrlPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `"${raw.slice(0, 200)}" is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, reason: `scheme ${url.protocol} is not allowed (http or https only)` };
  if (url.username || url.password)
    return { ok: false, reason: 'credentials inside the URL are not allowed; use tokenFile' };
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (METADATA_HOSTS.has(host)) return { ok: false, reason: `${host} is a cloud metadata host` };
  if (isIP(host)) {
    const reason = forbiddenAddressReason(host, policy);
    if (reason) return { ok: false, reason };
  } else if ((host === 'localhost' || host.endsWith('.localhost')) && !policy.allowLoopback) {
    return { ok: false, reason: `${host} is loopback; allow it explicitly with "allowLoopback": true` };
  }
  return { ok: true, url };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that resolves like Node does and refuses forbidden addresses, so the check applies
 * to the address the socket really connects to.
 */
export function guardedLookup(policy: UrlPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      for (const { address } of list) {
        const reason = forbiddenAddressReason(address, policy);
        if (reason) {
          const refused = Object.assign(new Error(`refused ${hostname}: ${reason}`), { code: 'EREFUSEDADDRESS' });
          return callback(refused, []);
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      return first
        ? callback(null, first.address, first.family)
        : callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
    });
  };
}
