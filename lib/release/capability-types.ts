/**
 * Shapes of the per-release capability data generated from the real ClusterVersion CRDs
 * (see `capability-enums.generated.ts`).
 */

/**
 * The capability enums of one release's ClusterVersion CRD (the Default feature-set variant from 4.15 on) and
 * where they were read from. Enum arrays keep the CRD's order, which is the order the API server lists them in
 * its "supported values" message. `null` means the field has no enum in that release.
 */
export interface ReleaseCapabilityEnums {
  /** `4.11` … `4.21` or `master`. */
  release: string;
  /** The openshift/api branch the CRD came from. */
  branch: string;
  /** The openshift/api commit the CRD came from. */
  commit: string;
  /** Path of the CRD inside openshift/api. */
  path: string;
  /** Value of the `release.openshift.io/feature-set` annotation, `null` for the single CRD of releases ≤ 4.14. */
  featureSet: string | null;
  enabledCapabilities: readonly string[] | null;
  knownCapabilities: readonly string[] | null;
  additionalEnabledCapabilities: readonly string[] | null;
  baselineCapabilitySet: readonly string[] | null;
}
