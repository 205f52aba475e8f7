/**
 * Redaction of everything an incident freezes (findings, evidence objects, series, identity), before it is stored or
 * shared, at openshift/must-gather-clean's level. Pure. Two steps, both through one {@link Redactor} per incident:
 * credentials are replaced by `<redacted:reason:0001>` placeholders (Secret payloads, pull secrets,
 * `last-applied-configuration`, credential fields, env entries, flags and every credential shape in text, see
 * secret-text), then addresses and names that identify the cluster are obfuscated to readable tokens (see obfuscate).
 * The same value always gets the same placeholder or token within the incident, and every replacement is listed in a
 * report with its path and reason (one entry per obfuscation token, at the first place it was seen).
 */
import type { RedactionEntryDto } from '@/lib/api/incident-dto';
import { Obfuscator, type ClusterIdentifiers } from './obfuscate';
import { isSecretName, redactSecretText, type SecretTextReason } from './secret-text';

/** Why a value was replaced by a placeholder. */
export type RedactionReason =
  'secret-data' | 'pull-secret' | 'last-applied-configuration' | 'credential-field' | SecretTextReason;

/** The rules applied, as listed in every report. */
export const REDACTION_RULES: readonly string[] = [
  'secret-data: every value of Secret data and stringData',
  'pull-secret: every .dockerconfigjson / .dockercfg value, wherever it appears',
  'last-applied-configuration: the kubectl.kubernetes.io/last-applied-configuration annotation ' +
    '(it often embeds secrets)',
  'credential-field: values of fields named like a credential (token, password, client-key-data, client-secret, ' +
    'api-key, authorization, docker config auth / password / identitytoken)',
  'env-credential: env entries and NAME=value pairs whose name says PASSWORD, PASSWD, SECRET, TOKEN, KEY, ' +
    'CREDENTIAL(S) or AUTH (not when it ends in FILE, PATH, REF, NAME…)',
  'credential-flag: the value of --token, --password and other credential flags (--flag=value, --flag value)',
  'url-credential: the user:password part of scheme://user:password@host',
  'authorization: Authorization header values, Bearer / bearer tokens, Basic credentials',
  'private-key: PEM private key blocks (and base64 of them) anywhere',
  'credential-text: JWTs, sha256~ OpenShift tokens and name: value credentials (kubeconfigs, docker configs) in text',
  'obfuscated (consistent tokens, as must-gather-clean): IPv4 (x-ipv4-…-x), IPv6 (x-ipv6-…-x), ' +
    'MAC (x-mac-…-x), domains (domain…: the cluster and base domains, and the registrable part of any other name ' +
    'under a known top-level domain; sub-domain labels stay), node names (x-node-…-x), the cluster ID ' +
    '(x-clusterid-…-x) and ' +
    'infrastructure name (x-infraid-…-x); ' +
    'kept: loopback addresses, versions, Kubernetes / OpenShift / registry domains, *.svc and *.cluster.local',
];

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const PULL_SECRET_KEYS = new Set(['.dockerconfigjson', '.dockercfg']);
const FLAG = /^--?([A-Za-z][\w-]*)$/;

/** The result of a redaction: the redacted copy and what was replaced. */
export interface Redaction<T> {
  value: T;
  entries: RedactionEntryDto[];
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function isScalar(value: unknown): value is string | number {
  return typeof value === 'string' || typeof value === 'number';
}

/** Stateful redactor: one per incident, so placeholders and tokens stay consistent across every part of it. */
export class Redactor {
  private readonly placeholders = new Map<string, string>();
  private readonly counters = new Map<RedactionReason, number>();
  private readonly replaced: RedactionEntryDto[] = [];
  private readonly obfuscator: Obfuscator;

  /** `identifiers`: the cluster's own names (see cluster-identifiers), obfuscated besides every address. */
  constructor(identifiers?: ClusterIdentifiers) {
    this.obfuscator = new Obfuscator(identifiers);
  }

  /** Every replacement so far: placeholders (one per occurrence), then obfuscation tokens (one per value). */
  get entries(): RedactionEntryDto[] {
    return [...this.replaced, ...this.obfuscator.entries];
  }

  private placeholder(original: string, reason: RedactionReason): string {
    const key = `${reason}\u0000${original}`;
    let value = this.placeholders.get(key);
    if (!value) {
      const n = (this.counters.get(reason) ?? 0) + 1;
      this.counters.set(reason, n);
      value = `<redacted:${reason}:${String(n).padStart(4, '0')}>`;
      this.placeholders.set(key, value);
    }
    return value;
  }

  private replace(original: unknown, path: string, reason: RedactionReason): string {
    const text = typeof original === 'string' ? original : (JSON.stringify(original) ?? '');
    const placeholder = this.placeholder(text, reason);
    this.replaced.push({ path, reason, placeholder });
    return placeholder;
  }

  /** A string with its credentials replaced, then its identifiers obfuscated. */
  text(value: string, path: string): string {
    return this.obfuscator.text(
      redactSecretText(value, (secret, reason) => this.replace(secret, path, reason)),
      path,
    );
  }

  private array(items: unknown[], path: string): unknown[] {
    return items.map((item, i) => {
      const previous = items[i - 1];
      const flag = typeof previous === 'string' ? FLAG.exec(previous) : null;
      // `args: ['--token', 'X']`: the value of a credential flag given as the next argument.
      if (flag && isSecretName(flag[1]) && typeof item === 'string' && !item.startsWith('-')) {
        return this.replace(item, `${path}[${i}]`, 'credential-flag');
      }
      return this.redact(item, `${path}[${i}]`);
    });
  }

  /** Returns a redacted deep copy of `value`; `path` names it in the report (e.g. `objects[2]`). */
  redact(value: unknown, path: string): unknown {
    if (typeof value === 'string') return this.text(value, path);
    if (Array.isArray(value)) return this.array(value, path);
    if (value === null || typeof value !== 'object') return value;
    const source = value as Record<string, unknown>;
    const isSecret = source.kind === 'Secret';
    // `env: [{name: DB_PASSWORD, value: x}]`: the name says the value is a credential.
    const envCredential = typeof source.name === 'string' && isScalar(source.value) && isSecretName(source.name, true);
    const out: Record<string, unknown> = {};
    for (const [rawKey, child] of Object.entries(source)) {
      const key = this.obfuscator.text(rawKey, path);
      const childPath = keyPath(path, key);
      if (isSecret && (key === 'data' || key === 'stringData') && child && typeof child === 'object') {
        out[key] = Object.fromEntries(
          Object.entries(child as Record<string, unknown>).map(([k, v]) => [
            k,
            this.replace(v, keyPath(childPath, k), PULL_SECRET_KEYS.has(k) ? 'pull-secret' : 'secret-data'),
          ]),
        );
      } else if (PULL_SECRET_KEYS.has(key)) {
        out[key] = this.replace(child, childPath, 'pull-secret');
      } else if (key === LAST_APPLIED) {
        out[key] = this.replace(child, childPath, 'last-applied-configuration');
      } else if (envCredential && key === 'value') {
        out[key] = this.replace(child, childPath, 'env-credential');
      } else if (isScalar(child) && isSecretName(key)) {
        out[key] = this.replace(child, childPath, 'credential-field');
      } else {
        out[key] = this.redact(child, childPath);
      }
    }
    return out;
  }
}

/** Redacts one value with a fresh redactor (tests and single objects). */
export function redact<T>(value: T, path = '$', identifiers?: ClusterIdentifiers): Redaction<T> {
  const redactor = new Redactor(identifiers);
  return { value: redactor.redact(value, path) as T, entries: redactor.entries };
}
