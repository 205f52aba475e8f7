/**
 * Lookups over the per-release capability enums generated from the real ClusterVersion CRDs: which capability
 * values a release's CRD accepts, and which of the values enabled now a rollback target would reject.
 */
import { CAPABILITY_ENUMS, RELEASE_KEYS, type ReleaseKey } from '@/lib/release/capability-enums.generated';
import type { ReleaseCapabilityEnums } from '@/lib/release/capability-types';
import { parseVersion } from '@/lib/k8s/version';

/**
 * The release whose CRD applies to a version. `newerThanKnown` is true when the version's minor is newer than every
 * released branch in the table, so `master` was used as the best available approximation.
 */
export interface ReleaseMatch {
  release: ReleaseKey;
  newerThanKnown: boolean;
}

const NUMBERED = RELEASE_KEYS.filter((k) => k !== 'master');

function isReleaseKey(value: string): value is ReleaseKey {
  return (RELEASE_KEYS as readonly string[]).includes(value);
}

/**
 * Maps a version (`4.14.1`, `4.15.0-ec.2`) or a release key (`4.14`, `master`) to the release whose CRD it ships.
 * A minor newer than the newest branch (or a newer major) maps to `master` with `newerThanKnown: true`. Returns
 * `undefined` for unparseable input and for minors older than the oldest release in the table (4.11, the release
 * that introduced capabilities).
 */
export function releaseForVersion(versionOrRelease: string): ReleaseMatch | undefined {
  const input = versionOrRelease.trim();
  if (isReleaseKey(input)) return { release: input, newerThanKnown: false };
  const v = parseVersion(/^\d+\.\d+$/.test(input) ? `${input}.0` : input);
  if (!v) return undefined;
  const key = `${v.major}.${v.minor}`;
  if (isReleaseKey(key)) return { release: key, newerThanKnown: false };
  const newest = NUMBERED[NUMBERED.length - 1];
  const [nMajor, nMinor] = newest.split('.').map(Number);
  if (v.major > nMajor || (v.major === nMajor && v.minor > nMinor)) return { release: 'master', newerThanKnown: true };
  return undefined;
}

/** The capability enums of a release (key, or any version of that release); `undefined` when unknown. */
export function capabilityEnumFor(versionOrRelease: string): ReleaseCapabilityEnums | undefined {
  const match = releaseForVersion(versionOrRelease);
  return match ? CAPABILITY_ENUMS[match.release] : undefined;
}

/**
 * The values of `enabled` that the ClusterVersion CRD of `targetRelease` (release key or version) does not accept in
 * `status.capabilities.enabledCapabilities`, in input order, without duplicates. `[]` when the target has no enum on
 * that field; `undefined` when the target release is unknown.
 */
export function rejectedCapabilities(enabled: readonly string[], targetRelease: string): string[] | undefined {
  const entry = capabilityEnumFor(targetRelease);
  if (!entry) return undefined;
  const allowed = entry.enabledCapabilities;
  if (!allowed) return [];
  return [...new Set(enabled.filter((c) => !allowed.includes(c)))];
}
