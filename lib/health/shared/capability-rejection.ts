/**
 * Capability-enum checks behind failure mode B: which ClusterVersion values an installed (or future) ClusterVersion
 * CRD rejects, and the exact 422 message the API server answers a write with.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { capabilityEnumsFromCrd, crdFeatureSets, type CapabilityEnumSet } from '@/lib/release/crd-capability-enums';
import { releaseForVersion, rejectedCapabilities } from '@/lib/release/capabilities';
import { CAPABILITY_ENUMS, RELEASE_KEYS, type ReleaseKey } from '@/lib/release/capability-enums.generated';
import { asString, dig, stringsAt } from '@/lib/health/shared/objects';

/** Name of the ClusterVersion CRD object. */
export const CLUSTERVERSION_CRD = 'clusterversions.config.openshift.io';

/** One value outside its field's enum: the field error the API server will report. */
export interface EnumViolation {
  /** Field path as the API server prints it, e.g. `status.capabilities.enabledCapabilities[3]`. */
  path: string;
  value: string;
  supported: readonly string[];
}

/**
 * The installed ClusterVersion CRD. When several variants are present (per feature set, annotation
 * `release.openshift.io/feature-set`), the one matching `featureSet` (FeatureGate `spec.featureSet`, '' = Default)
 * wins, then an unannotated or Default one, then the first.
 */
export function selectInstalledCrd(
  crds: readonly KubeObject[],
  featureSet: string | undefined,
): KubeObject | undefined {
  const candidates = crds.filter((c) => c.metadata.name === CLUSTERVERSION_CRD);
  const wanted = featureSet || 'Default';
  return (
    candidates.find((c) => crdFeatureSets(c).includes(wanted)) ??
    candidates.find((c) => crdFeatureSets(c).length === 0 || crdFeatureSets(c).includes('Default')) ??
    candidates[0]
  );
}

function listViolations(values: readonly string[], allowed: readonly string[] | null, path: string): EnumViolation[] {
  if (!allowed) return [];
  return values.flatMap((value, i) =>
    allowed.includes(value) ? [] : [{ path: `${path}[${i}]`, value, supported: allowed }],
  );
}

/**
 * Every capability value of a ClusterVersion outside the enums, in the order spec then status, each list in index
 * order: `spec.capabilities.baselineCapabilitySet`, `spec.capabilities.additionalEnabledCapabilities[i]`,
 * `status.capabilities.enabledCapabilities[i]`, `status.capabilities.knownCapabilities[i]`.
 */
export function capabilityViolations(clusterVersion: unknown, enums: CapabilityEnumSet): EnumViolation[] {
  const out: EnumViolation[] = [];
  const baseline = asString(dig(clusterVersion, 'spec', 'capabilities', 'baselineCapabilitySet'));
  if (baseline !== undefined && enums.baselineCapabilitySet && !enums.baselineCapabilitySet.includes(baseline)) {
    out.push({
      path: 'spec.capabilities.baselineCapabilitySet',
      value: baseline,
      supported: enums.baselineCapabilitySet,
    });
  }
  out.push(
    ...listViolations(
      stringsAt(clusterVersion, 'spec', 'capabilities', 'additionalEnabledCapabilities'),
      enums.additionalEnabledCapabilities,
      'spec.capabilities.additionalEnabledCapabilities',
    ),
    ...listViolations(
      stringsAt(clusterVersion, 'status', 'capabilities', 'enabledCapabilities'),
      enums.enabledCapabilities,
      'status.capabilities.enabledCapabilities',
    ),
    ...listViolations(
      stringsAt(clusterVersion, 'status', 'capabilities', 'knownCapabilities'),
      enums.knownCapabilities,
      'status.capabilities.knownCapabilities',
    ),
  );
  return out;
}

/** Capability violations of a ClusterVersion against an installed CRD object; `[]` when the CRD has no v1 schema. */
export function violationsAgainstCrd(clusterVersion: unknown, crd: unknown): EnumViolation[] {
  const enums = capabilityEnumsFromCrd(crd);
  return enums ? capabilityViolations(clusterVersion, enums) : [];
}

/**
 * The message of the API server's 422 `Invalid` Status for these violations, formatted like
 * `apierrors.NewInvalid` + `field.NotSupported`: one error is printed bare, several as `[e1, e2]` (duplicates
 * dropped). Real API servers may list several errors in a different order. `''` for no violations.
 */
export function invalidMessage(violations: readonly EnumViolation[], name = 'version'): string {
  const errors = [
    ...new Set(
      violations.map(
        (v) =>
          `${v.path}: Unsupported value: ${JSON.stringify(v.value)}: supported values: ${v.supported.map((s) => JSON.stringify(s)).join(', ')}`,
      ),
    ),
  ];
  if (errors.length === 0) return '';
  const body = errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
  return `ClusterVersion.config.openshift.io ${JSON.stringify(name)} is invalid: ${body}`;
}

/** Releases of the generated table whose `enabledCapabilities` enum equals `allowed` (to name an installed CRD). */
export function releasesWithEnum(allowed: readonly string[] | null): ReleaseKey[] {
  if (!allowed) return [];
  const key = JSON.stringify(allowed);
  return RELEASE_KEYS.filter((r) => JSON.stringify(CAPABILITY_ENUMS[r].enabledCapabilities) === key);
}

/** What rolling back to `targetVersion` would do to the cluster-version operator's status writes. */
export interface RejectionPrediction {
  targetVersion: string;
  /** Release whose CRD the target ships; `undefined` when the table has no data for it. */
  targetRelease?: ReleaseKey;
  /** True when the target is newer than every release in the table and `master` stood in for it. */
  newerThanKnown: boolean;
  /** Enabled capabilities the target CRD rejects, in input order. */
  rejected: string[];
  /** The target CRD's `status.capabilities.enabledCapabilities` enum (`null`: no enum or unknown release). */
  supported: readonly string[] | null;
  /** The message the API server will answer every status write with after the rollback; `null` if none rejected. */
  message: string | null;
}

/**
 * Predicts failure B for a rollback target from the capability table generated from the real CRDs: the enabled
 * capabilities (`status.capabilities.enabledCapabilities`, as now) that the target release's CRD will reject.
 */
export function predictRejection(enabledNow: readonly string[], targetVersion: string): RejectionPrediction {
  const match = releaseForVersion(targetVersion);
  if (!match) return { targetVersion, newerThanKnown: false, rejected: [], supported: null, message: null };
  const supported = CAPABILITY_ENUMS[match.release].enabledCapabilities;
  const rejected = rejectedCapabilities(enabledNow, match.release) ?? [];
  const violations = supported ? listViolations(enabledNow, supported, 'status.capabilities.enabledCapabilities') : [];
  return {
    targetVersion,
    targetRelease: match.release,
    newerThanKnown: match.newerThanKnown,
    rejected,
    supported,
    message: violations.length ? invalidMessage(violations) : null,
  };
}
