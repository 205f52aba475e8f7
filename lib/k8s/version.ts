/**
 * OpenShift release version math: `4.14.1`, `4.15.0-ec.2`, `4.14.0-rc.3`, `4.16.0-0.nightly-2024-01-01-000000`.
 * Versions follow SemVer 2.0 precedence: a prerelease sorts before its release, build metadata (`+...`) is ignored.
 */

/** A parsed release version. `prerelease` holds the dot-separated identifiers after `-` (empty for a GA release). */
export interface OpenShiftVersion {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
  /** The input, trimmed. */
  raw: string;
}

const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses `x.y.z[-prerelease][+build]` (a leading `v` is tolerated). Returns `undefined` for anything else. */
export function parseVersion(input: string): OpenShiftVersion | undefined {
  const raw = input.trim();
  const m = VERSION_RE.exec(raw);
  if (!m) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] ? m[4].split('.') : [],
    raw,
  };
}

function compareIdentifiers(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Math.sign(Number(a) - Number(b));
  // SemVer: numeric identifiers always have lower precedence than alphanumeric ones.
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePrerelease(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  if (a.length === 0) return 1;
  if (b.length === 0) return -1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compareIdentifiers(a[i], b[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/**
 * Orders two version strings by SemVer precedence: negative when `a < b`, 0 when equal, positive when `a > b`.
 * Unparseable strings sort before every parseable one and compare among themselves as plain strings, so the
 * function is a total order usable with `Array.prototype.sort`.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) {
    if (pa) return 1;
    if (pb) return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return (
    Math.sign(pa.major - pb.major) ||
    Math.sign(pa.minor - pb.minor) ||
    Math.sign(pa.patch - pb.patch) ||
    comparePrerelease(pa.prerelease, pb.prerelease)
  );
}

/**
 * True when both versions parse and `a` precedes `b`. A version that does not parse (an empty history entry, a
 * release image without a version) is never older or newer than another, so no step is called a rollback on it.
 */
export function isOlderVersion(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && !!parseVersion(a) && !!parseVersion(b) && compareVersions(a, b) < 0;
}

/** The `major.minor` of a version (`4.15.0-ec.2` → `4.15`), or `undefined` when it does not parse. */
export function minorOf(version: string): string | undefined {
  const v = parseVersion(version);
  return v ? `${v.major}.${v.minor}` : undefined;
}

/**
 * True when `from → to` crosses a minor boundary downwards (e.g. 4.14.3 → 4.13.9), the rollback that re-applies an
 * older release's CRDs. False when either version does not parse.
 */
export function isCrossMinorDowngrade(from: string, to: string): boolean {
  const f = parseVersion(from);
  const t = parseVersion(to);
  if (!f || !t) return false;
  return t.major < f.major || (t.major === f.major && t.minor < f.minor);
}
