/**
 * The one check of the Node.js runtime, shared by every CLI (start, sim, analyze, demo, bench). The supported range
 * is package.json's `engines.node`, so npm, the README and the CLIs name the same minimum.
 */
import { readFileSync } from 'node:fs';

/** package.json's `engines.node` is not a range this check understands. */
export class EnginesRangeError extends Error {
  override readonly name = 'EnginesRangeError';
}

type Version = [major: number, minor: number, patch: number];

function parseNodeVersion(text: string): Version | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)] : undefined;
}

/** The minimum of an `engines.node` range; only the `>=X[.Y[.Z]]` form is accepted. */
export function parseMinimumNode(range: string): Version {
  const minimum = range.trim().startsWith('>=') ? parseNodeVersion(range.trim().slice(2)) : undefined;
  if (!minimum) throw new EnginesRangeError(`engines.node must be of the form ">=X[.Y[.Z]]", got "${range}"`);
  return minimum;
}

/** One line saying why `version` does not satisfy `range`, or undefined when it does. */
export function unsupportedNodeMessage(version: string, range: string): string | undefined {
  const minimum = parseMinimumNode(range);
  const current = parseNodeVersion(version);
  if (!current) throw new EnginesRangeError(`cannot read the Node.js version "${version}"`);
  for (let i = 0; i < 3; i += 1) {
    if (current[i] > minimum[i]) return undefined;
    if (current[i] < minimum[i]) {
      return (
        `update-health needs Node.js ${range.trim()} (package.json engines), but runs on Node.js ${version}: ` +
        'use a current LTS (README "Runtime"; bash .ci/run installs one)'
      );
    }
  }
  return undefined;
}

/** The `engines.node` range of the package.json two directories up (the repository or image root). */
export function requiredNodeRange(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines?: { node?: unknown };
  };
  const range = manifest.engines?.node;
  if (typeof range !== 'string') throw new EnginesRangeError('package.json has no engines.node');
  return range;
}

/** Exits with status 1 and one line on stderr when this process runs on a Node.js outside `engines.node`. */
export function exitUnlessSupportedNode(): void {
  const message = unsupportedNodeMessage(process.versions.node, requiredNodeRange());
  if (message === undefined) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
