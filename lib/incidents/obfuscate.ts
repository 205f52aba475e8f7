/**
 * Obfuscation of what identifies a cluster and its network, after openshift/must-gather-clean: IPv4, IPv6 and MAC
 * addresses, domains, node host names, the cluster ID and infrastructure name become readable tokens such as
 * `x-ipv4-0000000001-x` or `domain0000000001`, the same value always the same token within one {@link Obfuscator}
 * (one per incident), so the incident still reads. Pure.
 */
import type { RedactionEntryDto } from '@/lib/api/incident-dto';

/** What an obfuscation token stands for (the `reason` of its report entry). */
export type ObfuscationKind = 'ipv4' | 'ipv6' | 'mac' | 'domain' | 'node-name' | 'cluster-id' | 'infrastructure-name';

/** Names the cluster's own objects give for itself, obfuscated wherever they appear (see cluster-identifiers). */
export interface ClusterIdentifiers {
  /** Each node: its name and other names for it (the short host name), all mapped to one token. */
  nodes: readonly { name: string; aliases: readonly string[] }[];
  clusterIDs: readonly string[];
  infrastructureNames: readonly string[];
  /** The cluster's domains (`<name>.<base domain>`, the base domain); sub-domains keep their first labels. */
  domains: readonly string[];
}

const NO_IDENTIFIERS: ClusterIdentifiers = { nodes: [], clusterIDs: [], infrastructureNames: [], domains: [] };

const TEMPLATES: Record<ObfuscationKind, (n: string) => string> = {
  ipv4: (n) => `x-ipv4-${n}-x`,
  ipv6: (n) => `x-ipv6-${n}-x`,
  mac: (n) => `x-mac-${n}-x`,
  domain: (n) => `domain${n}`,
  'node-name': (n) => `x-node-${n}-x`,
  'cluster-id': (n) => `x-clusterid-${n}-x`,
  'infrastructure-name': (n) => `x-infraid-${n}-x`,
};

/** Loopback and unspecified addresses say nothing about a cluster (must-gather-clean keeps them too). */
const KEPT_IPS = new Set(['127.0.0.1', '0.0.0.0', '::1', '::']);

/**
 * Domains kept as they are: public names of the Kubernetes / OpenShift ecosystem (API groups, label keys, image
 * registries, source hosts), which every cluster shares and which the incident needs to read, and in-cluster service
 * names (`*.svc`, `*.cluster.local`), which are the same on every cluster and name only a service and namespace.
 */
const KEPT_DOMAINS = [
  'kubernetes.io',
  'k8s.io',
  'x-k8s.io',
  'openshift.io',
  'openshift.com',
  'redhat.io',
  'redhat.com',
  'quay.io',
  'docker.io',
  'docker.com',
  'gcr.io',
  'ghcr.io',
  'operatorframework.io',
  'coreos.com',
  'github.com',
  'githubusercontent.com',
  'golang.org',
  'go.dev',
  'gopkg.in',
  'prometheus.io',
  'ovn.org',
  'cncf.io',
  'metal3.io',
  'fedoraproject.org',
  'openshift.org',
  'okd.io',
  'kubebuilder.io',
  'google.com',
  'googleapis.com',
  'windows.net',
  'azure.com',
  'microsoft.com',
  'amazonaws.com',
  'cluster.local',
  'compute.internal',
  'ec2.internal',
  'svc',
];
/**
 * Top-level domains a name must end in to be taken for a domain: common generic ones and the names private networks
 * use. Kubernetes is full of dotted lowercase names that are not domains (`sa.scc.mcs`, `olm.operatorgroup.uid`,
 * `runtime.goexit`, file names), so an unknown last label means "not a domain".
 */
const GENERIC_TLDS = new Set([
  'com',
  'net',
  'org',
  'io',
  'dev',
  'app',
  'cloud',
  'info',
  'biz',
  'gov',
  'edu',
  'mil',
  'int',
  'tech',
  'online',
  'site',
  'xyz',
  'systems',
  'services',
  'solutions',
  'network',
  'host',
  'internal',
  'local',
  'lan',
  'corp',
  'home',
  'intranet',
  'intra',
  'private',
  'localdomain',
  'example',
  'test',
  'invalid',
]);
/** Two-letter last labels that are file extensions more often than country domains; never a top-level domain. */
const NOT_COUNTRY = new Set([
  'go',
  'sh',
  'py',
  'js',
  'ts',
  'md',
  'so',
  'rs',
  'gz',
  'db',
  'pl',
  'cc',
  'hh',
  'rb',
  'mk',
  'in',
  'am',
  'id',
  'ok',
]);
/** Second-level labels under a country domain that belong to the public suffix (`example.co.uk`). */
const PUBLIC_SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'ne', 'or']);

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![0-9A-Za-z.])${OCTET}(?:\\.${OCTET}){3}(?![0-9]|\\.[0-9])`, 'g');
/** `10-0-187-218` as in AWS host names (`ip-10-0-187-218`), and `10_0_187_218`. */
const IPV4_DASHED = new RegExp(`(?<![0-9A-Za-z])${OCTET}([-_])${OCTET}\\1${OCTET}\\1${OCTET}(?![0-9]|[-_][0-9])`, 'g');
const IPV6_CANDIDATE = /(?<![0-9A-Za-z:.])(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?![0-9A-Za-z:])/g;
/** Not the common `[0-9a-f]{12}` form: that would take UUID parts and hashes (must-gather-clean does the same). */
const MAC = /(?<![0-9A-Za-z:-])[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(?:\1[0-9a-fA-F]{2}){4}(?![0-9A-Za-z:-])/g;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const FQDN = new RegExp(`(?<![A-Za-z0-9_.-])(?:${LABEL}\\.)+[a-z]{2,24}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'g');

function isIPv6(candidate: string): boolean {
  const halves = candidate.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half ? half.split(':') : []));
  if (groups.length === 0 || !groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? groups.length <= 7 : groups.length === 8;
}

function isKeptDomain(name: string): boolean {
  return KEPT_DOMAINS.some((kept) => name === kept || name.endsWith(`.${kept}`));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Longest first, so the most specific name wins where names overlap (a node name over its short host name). */
function alternation(names: Iterable<string>): string {
  return [...new Set(names)]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
}

/** One obfuscation map: tokens are numbered per kind in order of first appearance. */
export class Obfuscator {
  private readonly tokens = new Map<string, string>();
  private readonly counters = new Map<ObfuscationKind, number>();
  /** One report entry per token, at the path where its value was first seen. */
  readonly entries: RedactionEntryDto[] = [];
  private readonly exact: { re: RegExp; lookup: Map<string, { kind: ObfuscationKind; canonical: string }> } | undefined;
  private readonly clusterDomains: RegExp | undefined;

  constructor(identifiers: ClusterIdentifiers = NO_IDENTIFIERS) {
    const lookup = new Map<string, { kind: ObfuscationKind; canonical: string }>();
    const add = (name: string, kind: ObfuscationKind, canonical: string) => {
      lookup.set(name.toLowerCase(), { kind, canonical });
    };
    for (const node of identifiers.nodes) {
      for (const alias of [node.name, ...node.aliases]) add(alias, 'node-name', node.name);
    }
    for (const id of identifiers.clusterIDs) add(id, 'cluster-id', id.toLowerCase());
    for (const name of identifiers.infrastructureNames) add(name, 'infrastructure-name', name);
    const names = alternation(lookup.keys());
    this.exact = names ? { re: new RegExp(`(?<![A-Za-z0-9_.])(?:${names})(?![A-Za-z0-9_])`, 'gi'), lookup } : undefined;
    const domains = alternation(
      identifiers.domains.map((d) => d.toLowerCase()).filter((d) => d.includes('.') && !isKeptDomain(d)),
    );
    // Lazy sub-domain labels: the longest (most specific) cluster domain that ends the name is the one replaced.
    // A match starts only at the first label of a name, else each label of a long dotted run would rescan the rest.
    this.clusterDomains = domains
      ? new RegExp(`(?<![A-Za-z0-9-]|[A-Za-z0-9-]\\.)((?:[a-z0-9-]+\\.)*?)(${domains})(?![A-Za-z0-9-])`, 'gi')
      : undefined;
  }

  /** The token for a value (canonical form: the same address written two ways gets one token). */
  token(kind: ObfuscationKind, canonical: string, path: string): string {
    const key = `${kind}\u0000${canonical}`;
    let token = this.tokens.get(key);
    if (!token) {
      const n = (this.counters.get(kind) ?? 0) + 1;
      this.counters.set(kind, n);
      token = TEMPLATES[kind](String(n).padStart(10, '0'));
      this.tokens.set(key, token);
      this.entries.push({ path, reason: kind, placeholder: token });
    }
    return token;
  }

  /** `value` with every identifier and address replaced by its token; `path` names it in the report. */
  text(value: string, path: string): string {
    let out = value;
    if (this.exact) {
      const { re, lookup } = this.exact;
      out = out.replace(re, (m) => {
        const found = lookup.get(m.toLowerCase());
        return found ? this.token(found.kind, found.canonical, path) : m;
      });
    }
    if (this.clusterDomains) {
      out = out.replace(
        this.clusterDomains,
        (_m, sub: string, domain: string) => `${sub}${this.token('domain', domain.toLowerCase(), path)}`,
      );
    }
    out = out.replace(MAC, (m) => this.token('mac', m.toUpperCase().replace(/-/g, ':'), path));
    out = out.replace(IPV4, (m) => (KEPT_IPS.has(m) ? m : this.token('ipv4', m, path)));
    out = out.replace(IPV4_DASHED, (m) => {
      const dotted = m.replace(/[-_]/g, '.');
      return KEPT_IPS.has(dotted) ? m : this.token('ipv4', dotted, path);
    });
    out = out.replace(IPV6_CANDIDATE, (m) =>
      isIPv6(m) && !KEPT_IPS.has(m.toLowerCase()) ? this.token('ipv6', m.toLowerCase(), path) : m,
    );
    return out.replace(FQDN, (m) => this.domain(m, path));
  }

  /** Replaces the registrable part (`acme-corp.com`, `acme.co.uk`), keeping sub-domain labels as must-gather-clean. */
  private domain(name: string, path: string): string {
    if (isKeptDomain(name)) return name;
    const labels = name.split('.');
    const tld = labels[labels.length - 1];
    const country = tld.length === 2 && !NOT_COUNTRY.has(tld);
    // Two labels only under a generic domain: `klog.v2`-like pairs under a country code are too common.
    if (!(GENERIC_TLDS.has(tld) || (country && labels.length > 2))) return name;
    const size = country && labels.length > 3 && PUBLIC_SECOND_LEVEL.has(labels[labels.length - 2]) ? 3 : 2;
    const sub = labels.slice(0, -size).join('.');
    const token = this.token('domain', labels.slice(-size).join('.'), path);
    return sub ? `${sub}.${token}` : token;
  }
}
