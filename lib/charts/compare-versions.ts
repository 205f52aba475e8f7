/**
 * Orders OpenShift release versions (`4.14.38`, `4.16.0-ec.2`, `4.15.0-0.nightly-2024-01-01-000000`) like semver:
 * numeric major.minor.patch, then a pre-release sorts before its release, then pre-release fields pairwise.
 * Returns < 0, 0 or > 0. Unparseable versions compare as strings, after parseable ones.
 */
export function compareVersions(a: string, b: string): number {
  const pa = parse(a),
    pb = parse(b);
  if (!pa || !pb) return pa ? -1 : pb ? 1 : a.localeCompare(b);
  for (let i = 0; i < 3; i++) if (pa.core[i] !== pb.core[i]) return pa.core[i] - pb.core[i];
  if (!pa.pre.length || !pb.pre.length) return pb.pre.length - pa.pre.length;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i],
      y = pb.pre[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const nx = /^\d+$/.test(x),
      ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function parse(v: string): { core: number[]; pre: string[] } | null {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(v.trim());
  if (!m) return null;
  return { core: [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)], pre: m[4] ? m[4].split('.') : [] };
}
