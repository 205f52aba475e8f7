/**
 * Reads the capability enums out of a ClusterVersion CustomResourceDefinition (`clusterversions.config.openshift.io`).
 * Used both by the release-data generator (on the real CRD of every release) and by the status-write-rejection
 * detector (on the CRD installed in the cluster), so the two read the schema the same way.
 */

/** The enums the ClusterVersion CRD puts on capability fields. `null` means the field has no enum (anything goes). */
export interface CapabilityEnumSet {
  enabledCapabilities: string[] | null;
  knownCapabilities: string[] | null;
  additionalEnabledCapabilities: string[] | null;
  baselineCapabilitySet: string[] | null;
}

/** The annotation naming the feature set a CRD variant belongs to (absent on releases ≤ 4.14, a single CRD). */
export const FEATURE_SET_ANNOTATION = 'release.openshift.io/feature-set';

type Json = Record<string, unknown>;

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function dig(root: unknown, path: string[]): unknown {
  let cur: unknown = root;
  for (const key of path) cur = obj(cur)?.[key];
  return cur;
}

function enumAt(schema: unknown, path: string[]): string[] | null {
  const found = dig(schema, path);
  return Array.isArray(found) ? found.map(String) : null;
}

/**
 * The openAPIV3Schema of CRD version `v1` (the served, storage version of ClusterVersion), or `undefined` when the
 * object is not a CRD with such a version.
 */
export function clusterVersionV1Schema(crd: unknown): unknown {
  const versions = dig(crd, ['spec', 'versions']);
  if (!Array.isArray(versions)) return undefined;
  const v1 = versions.find((v) => obj(v)?.name === 'v1' && obj(v)?.served !== false);
  return dig(v1, ['schema', 'openAPIV3Schema']);
}

/**
 * Capability enums of a ClusterVersion CRD object (parsed YAML/JSON). Returns `undefined` when the CRD has no
 * served v1 schema; individual fields are `null` when that field carries no enum.
 */
export function capabilityEnumsFromCrd(crd: unknown): CapabilityEnumSet | undefined {
  const schema = clusterVersionV1Schema(crd);
  if (!schema) return undefined;
  const status = ['properties', 'status', 'properties', 'capabilities', 'properties'];
  const spec = ['properties', 'spec', 'properties', 'capabilities', 'properties'];
  return {
    enabledCapabilities: enumAt(schema, [...status, 'enabledCapabilities', 'items', 'enum']),
    knownCapabilities: enumAt(schema, [...status, 'knownCapabilities', 'items', 'enum']),
    additionalEnabledCapabilities: enumAt(schema, [...spec, 'additionalEnabledCapabilities', 'items', 'enum']),
    baselineCapabilitySet: enumAt(schema, [...spec, 'baselineCapabilitySet', 'enum']),
  };
}

/** Feature sets a CRD variant declares through {@link FEATURE_SET_ANNOTATION} (comma-separated); `[]` when absent. */
export function crdFeatureSets(crd: unknown): string[] {
  const value = dig(crd, ['metadata', 'annotations', FEATURE_SET_ANNOTATION]);
  if (typeof value !== 'string' || value.trim() === '') return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
