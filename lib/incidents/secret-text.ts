/**
 * Credentials inside free text (messages, log lines, command lines, embedded kubeconfigs and docker configs) and the
 * names that mark a value as a credential. Pure; {@link redactSecretText} finds, the caller chooses the placeholder.
 */

/** Why a credential in text was replaced; each is one shape from the incident redaction rules. */
export type SecretTextReason =
  'private-key' | 'url-credential' | 'authorization' | 'credential-flag' | 'env-credential' | 'credential-text';

const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'key',
  'credential',
  'credentials',
  'auth',
  'apikey',
]);
/** Names whose value is a secret on their own (not only in a compound such as `DB_KEY`). */
const STRONG_WORDS = new Set(['password', 'passwd', 'passphrase', 'token', 'apikey', 'credential', 'credentials']);
/** Outside env entries, KEY and AUTH name a credential only with one of these (`topologyKey`, `--tls-key` do not). */
const KEY_QUALIFIERS = new Set([
  'api',
  'private',
  'secret',
  'access',
  'client',
  'signing',
  'encryption',
  'ssh',
  'shared',
  'account',
  'session',
  'master',
  'basic',
  'proxy',
  'registry',
  'http',
  'bearer',
]);
const WEAK_WORDS = new Set(['key', 'auth']);
/** A last word that says the value only points at a secret (a file, a reference) or describes it. */
const DESCRIPTIVE_LAST = new Set([
  'file',
  'path',
  'dir',
  'directory',
  'ref',
  'name',
  'names',
  'type',
  'kind',
  'url',
  'uri',
  'endpoint',
  'host',
  'port',
  'header',
  'length',
  'size',
  'ttl',
  'timeout',
  'seconds',
  'mode',
  'algorithm',
  'usage',
  'usages',
  'format',
  'version',
  'expiry',
  'expires',
  'expiration',
  'selector',
  'namespace',
]);
/** Fields that hold a credential in kubeconfigs, docker configs and OAuth clients, whatever the rule above says. */
const CREDENTIAL_FIELD = new RegExp(
  '^(' +
    [
      'token',
      'id[-_]?token',
      'access[-_]?token',
      'refresh[-_]?token',
      'bearer[-_]?token',
      'auth[-_]?token',
      'auth',
      'identitytoken',
      'registrytoken',
      'client[-_]?key[-_]?data',
      'client[-_]?secret',
      'password',
      'passwd',
      'secret[-_]?key',
      'private[-_]?key',
      'api[-_]?key',
      'authorization',
    ].join('|') +
    ')$',
  'i',
);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.\-]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * Whether a name (an env var, a flag, a field, a key in `key=value`) marks its value as a credential: one of its words
 * is PASSWORD, PASSWD, SECRET, TOKEN, KEY, CREDENTIAL(S) or AUTH (case-insensitive, `DB_PASSWORD`, `apiKey`,
 * `--bearer-token`), unless its last word only describes or points at one (`TOKEN_FILE`, `secretName`).
 * `loose` (env entries) also takes a lone `KEY` or `AUTH`; elsewhere those alone are ordinary words (toleration keys).
 */
export function isSecretName(name: string, loose = false): boolean {
  if (CREDENTIAL_FIELD.test(name)) return true;
  const parts = words(name);
  if (parts.length === 0 || DESCRIPTIVE_LAST.has(parts[parts.length - 1])) return false;
  if (!parts.some((w) => SECRET_WORDS.has(w))) return false;
  if (loose) return true;
  if (parts.length === 1) return STRONG_WORDS.has(parts[0]);
  return parts.some((w) => SECRET_WORDS.has(w) && !WEAK_WORDS.has(w)) || parts.some((w) => KEY_QUALIFIERS.has(w));
}

function decodesTo(base64: string, test: (text: string) => boolean): boolean {
  const clean = base64.replace(/=+$/, '');
  const usable = clean.slice(0, clean.length - (clean.length % 4));
  try {
    return test(atob(usable));
  } catch {
    return false;
  }
}

/** Replaces one found credential; returns the text written in its place. */
export type SecretReplacer = (secret: string, reason: SecretTextReason) => string;

interface Pattern {
  re: RegExp;
  reason: SecretTextReason;
  /** Capture group holding the name that must be secret-ish, if any. */
  nameGroup?: number;
  loose?: boolean;
  /** Extra test on the credential itself. */
  accept?: (secret: string) => boolean;
}

/** `-----BEGIN RSA PRIVATE KEY-----`, `-----END PGP PRIVATE KEY BLOCK-----`… */
const PEM_LINE = (edge: string) => `-----${edge} [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`;
/**
 * A name before `=` or `:`. Bounded: names are short, and an unbounded run here would make every word boundary of a
 * long dotted or hyphenated string scan to its end (quadratic time on a crafted log line).
 */
const NAME = '[A-Za-z_][\\w.-]{0,63}';
const VALUE = `("[^"\\n]*"|'[^'\\n]*'|[^\\s"',;}&\\\\)\\]<>]+)`;
/** Between a name and its value on one line: `=` or `:`, an escaped quote (JSON inside a JSON string). */
const ASSIGN = (sep: string) => `["']?[ \\t]*${sep}[ \\t]*(?:\\\\["'])?`;
/** Values that are never the credential: the scheme before it, booleans and empty values. */
const notScheme = (value: string) => !/^(bearer|basic|negotiate|digest|true|false|null|none|yes|no)$/i.test(value);
// Each pattern: group 1 is kept, the last group is the credential (quotes around it are kept too).
const PATTERNS: Pattern[] = [
  {
    re: new RegExp(`()(${PEM_LINE('BEGIN')}[\\s\\S]*?(?:${PEM_LINE('END')}|$))`, 'g'),
    reason: 'private-key',
  },
  {
    re: /()(LS0tLS1CRUdJT[A-Za-z0-9+/]{16,}={0,2})/g,
    reason: 'private-key',
    accept: (s) => decodesTo(s.slice(0, 80), (text) => /PRIVATE KEY/.test(text)),
  },
  { re: /(\b[a-z][a-z0-9+.-]{0,31}:\/\/)([^\s/@"'<>]+)@/gi, reason: 'url-credential' },
  {
    re: /(\bauthorization\\?["']?\s*[:=]\s*(?:\[\s*)?(?:\\?["'])?(?:[A-Za-z-]+\s+)?)([^\s"',;\\\]]+)/gi,
    reason: 'authorization',
    accept: notScheme,
  },
  { re: /(\bbearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi, reason: 'authorization' },
  {
    re: /(\bbasic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![\w+/=])/gi,
    reason: 'authorization',
    accept: (s) => decodesTo(s, (text) => /^[\x20-\x7e]+:[\x20-\x7e]*$/.test(text)),
  },
  // `- name: DB_PASSWORD\n  value: x` (YAML) and `{"name":"DB_PASSWORD","value":"x"}` (JSON) inside text.
  {
    re: new RegExp(`(\\bname["']?\\s*:\\s*["']?(${NAME})["']?\\s*,?\\s*["']?value["']?\\s*:\\s*)${VALUE}`, 'g'),
    reason: 'env-credential',
    nameGroup: 2,
    loose: true,
  },
  {
    re: new RegExp(`((?<![\\w-])--?([A-Za-z][\\w-]{0,63})(?:=|\\s+)(?!-))${VALUE}`, 'g'),
    reason: 'credential-flag',
    nameGroup: 2,
  },
  {
    re: new RegExp(`(\\b(${NAME})\\\\?${ASSIGN('=')})${VALUE}`, 'g'),
    reason: 'env-credential',
    nameGroup: 2,
    accept: notScheme,
  },
  // `token: x`, `"auth": "x"`: only names that are credentials on their own or compounds (`db_password:`), since
  // prose is full of `secret: not found`.
  {
    re: new RegExp(`(\\b(${NAME})\\\\?${ASSIGN(':')})${VALUE}`, 'g'),
    reason: 'credential-text',
    nameGroup: 2,
    accept: notScheme,
  },
  { re: /()(\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*)/g, reason: 'credential-text' },
  { re: /()(\bsha256~[A-Za-z0-9_-]{20,})/g, reason: 'credential-text' },
];

function unquote(value: string): [string, string, string] {
  const q = value[0];
  return (q === '"' || q === "'") && value.endsWith(q) && value.length >= 2
    ? [q, value.slice(1, -1), q]
    : ['', value, ''];
}

function isPlaceholder(value: string): boolean {
  return /^<redacted:[\w-]+:\d+>$/.test(value);
}

/** Replaces every credential found in `text` by what `replace` returns for it. */
export function redactSecretText(text: string, replace: SecretReplacer): string {
  let out = text;
  for (const { re, reason, nameGroup, loose, accept } of PATTERNS) {
    out = out.replace(re, (...args: unknown[]) => {
      const match = args[0] as string;
      const groups = args.slice(
        1,
        args.findIndex((a, i) => i > 0 && typeof a === 'number'),
      ) as (string | undefined)[];
      const keep = groups[0] ?? '';
      const secret = groups[groups.length - 1] ?? '';
      const tail = match.slice(keep.length + secret.length);
      if (nameGroup !== undefined && !isSecretName(groups[nameGroup - 1] ?? '', loose)) return match;
      const [open, inner, close] = unquote(secret);
      if (!inner || isPlaceholder(inner) || (accept && !accept(inner))) return match;
      return `${keep}${open}${replace(inner, reason)}${close}${tail}`;
    });
  }
  return out;
}
