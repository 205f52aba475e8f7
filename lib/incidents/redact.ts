/**
 * Redaction of everything an incident freezes (findings, evidence objects, series), before it is stored or shared.
 * Pure. Conventions from openshift/must-gather-clean: Secret payloads, pull secrets, `last-applied-configuration`
 * values and credentials are replaced by placeholders that stay consistent across the incident (the same value always
 * gets the same placeholder), and every replacement is listed in a report with its path and reason.
 */
import type { RedactionEntryDto } from '@/lib/api/incident-dto';

/** Why a value was replaced. */
export type RedactionReason = 'secret-data' | 'pull-secret' | 'last-applied-configuration' | 'credential-field' | 'credential-text';

/** The rules applied, as listed in every report. */
export const REDACTION_RULES: readonly string[] = [
  'secret-data: every value of Secret data and stringData',
  'pull-secret: every .dockerconfigjson / .dockercfg value, wherever it appears',
  'last-applied-configuration: the kubectl.kubernetes.io/last-applied-configuration annotation (it often embeds secrets)',
  'credential-field: values of fields named like token, password, client-key-data, client-secret, api-key, authorization',
  'credential-text: bearer tokens, JWTs, sha256~ OpenShift tokens and key=value / key: value credentials inside any text',
];

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const PULL_SECRET_KEYS = new Set(['.dockerconfigjson', '.dockercfg']);
const CREDENTIAL_FIELD = /^(token|id-token|id_token|access[-_]?token|refresh[-_]?token|bearer[-_]?token|auth[-_]?token|client-key-data|client[-_]?secret|password|passwd|secret[-_]?key|private[-_]?key|api[-_]?key|authorization)$/i;
const TEXT_PATTERNS: { re: RegExp; keep: number }[] = [
  // key: value / key=value / "key":"value" inside text (kubeconfigs in ConfigMaps, messages, log lines).
  { re: /((?:token|id-token|access[-_]?token|refresh[-_]?token|client-key-data|client[-_]?secret|password|passwd|api[-_]?key)["']?\s*[:=]\s*["']?)([^\s"',;}]{3,})/gi, keep: 1 },
  { re: /(\bBearer\s+)([A-Za-z0-9._~+/=-]{8,})/g, keep: 1 },
  { re: /()(\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*)/g, keep: 1 },
  { re: /()(\bsha256~[A-Za-z0-9_-]{20,})/g, keep: 1 },
];

/** The result of a redaction: the redacted copy and what was replaced. */
export interface Redaction<T> {
  value: T;
  entries: RedactionEntryDto[];
}

function keyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** Stateful redactor: one per incident, so placeholders stay consistent across every part of it. */
export class Redactor {
  private readonly placeholders = new Map<string, string>();
  private readonly counters = new Map<RedactionReason, number>();
  readonly entries: RedactionEntryDto[] = [];

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
    const text = typeof original === 'string' ? original : JSON.stringify(original) ?? '';
    const placeholder = this.placeholder(text, reason);
    this.entries.push({ path, reason, placeholder });
    return placeholder;
  }

  private text(value: string, path: string): string {
    let out = value;
    for (const { re, keep } of TEXT_PATTERNS) {
      out = out.replace(re, (...m: string[]) => `${m[keep]}${this.replace(m[keep + 1], path, 'credential-text')}`);
    }
    return out;
  }

  /** Returns a redacted deep copy of `value`; `path` names it in the report (e.g. `objects[2]`). */
  redact(value: unknown, path: string): unknown {
    if (typeof value === 'string') return this.text(value, path);
    if (Array.isArray(value)) return value.map((item, i) => this.redact(item, `${path}[${i}]`));
    if (value === null || typeof value !== 'object') return value;
    const source = value as Record<string, unknown>;
    const isSecret = source.kind === 'Secret';
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(source)) {
      const childPath = keyPath(path, key);
      if (isSecret && (key === 'data' || key === 'stringData') && child && typeof child === 'object') {
        out[key] = Object.fromEntries(Object.entries(child as Record<string, unknown>).map(([k, v]) =>
          [k, this.replace(v, keyPath(childPath, k), PULL_SECRET_KEYS.has(k) ? 'pull-secret' : 'secret-data')]));
      } else if (PULL_SECRET_KEYS.has(key)) {
        out[key] = this.replace(child, childPath, 'pull-secret');
      } else if (key === LAST_APPLIED) {
        out[key] = this.replace(child, childPath, 'last-applied-configuration');
      } else if (CREDENTIAL_FIELD.test(key) && (typeof child === 'string' || typeof child === 'number')) {
        out[key] = this.replace(child, childPath, 'credential-field');
      } else {
        out[key] = this.redact(child, childPath);
      }
    }
    return out;
  }
}

/** Redacts one value with a fresh redactor (tests and single objects). */
export function redact<T>(value: T, path = '$'): Redaction<T> {
  const redactor = new Redactor();
  return { value: redactor.redact(value, path) as T, entries: redactor.entries };
}
