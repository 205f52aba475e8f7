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

const STATUS_CAPABILITIES = ['properties', 'status', 'properties', 'capabilities', 'properties'];
const SPEC_CAPABILITIES = ['properties', 'spec', 'properties', 'capabilities', 'properties'];

/** Where in the v1 schema each enum of {@link CapabilityEnumSet} sits. */
const ENUM_PATHS: Record<keyof CapabilityEnumSet, string[]> = {
  enabledCapabilities: [...STATUS_CAPABILITIES, 'enabledCapabilities', 'items', 'enum'],
  knownCapabilities: [...STATUS_CAPABILITIES, 'knownCapabilities', 'items', 'enum'],
  additionalEnabledCapabilities: [...SPEC_CAPABILITIES, 'additionalEnabledCapabilities', 'items', 'enum'],
  baselineCapabilitySet: [...SPEC_CAPABILITIES, 'baselineCapabilitySet', 'enum'],
};

/**
 * Capability enums of a ClusterVersion CRD object (parsed YAML/JSON). Returns `undefined` when the CRD has no
 * served v1 schema; individual fields are `null` when that field carries no enum.
 */
export function capabilityEnumsFromCrd(crd: unknown): CapabilityEnumSet | undefined {
  const schema = clusterVersionV1Schema(crd);
  if (!schema) return undefined;
  return {
    enabledCapabilities: enumAt(schema, ENUM_PATHS.enabledCapabilities),
    knownCapabilities: enumAt(schema, ENUM_PATHS.knownCapabilities),
    additionalEnabledCapabilities: enumAt(schema, ENUM_PATHS.additionalEnabledCapabilities),
    baselineCapabilitySet: enumAt(schema, ENUM_PATHS.baselineCapabilitySet),
  };
}

function setAt(root: Json, path: string[], value: unknown): void {
  let cur = root;
  for (const key of path.slice(0, -1)) {
    const next = obj(cur[key]) ?? {};
    cur[key] = next;
    cur = next;
  }
  cur[path[path.length - 1]] = value;
}

/**
 * A CRD reduced to what {@link capabilityEnumsFromCrd} and {@link crdFeatureSets} read: its metadata, and per
 * version the name, served and storage flags and the capability enums of its schema (nothing else of the schema).
 * A whole ClusterVersion CRD is hundreds of kilobytes in memory; this is a few hundred bytes with the same enums.
 */
export function capabilityEnumsOnly<T extends { metadata: unknown; spec?: unknown }>(crd: T): T {
  const spec = obj(crd.spec);
  const versions = dig(crd, ['spec', 'versions']);
  if (!spec || !Array.isArray(versions)) return crd;
  const slimVersions = versions.map((version) => {
    const v = obj(version) ?? {};
    const out: Json = { name: v.name, served: v.served, storage: v.storage };
    const schema = dig(v, ['schema', 'openAPIV3Schema']);
    if (schema === undefined) return out;
    const kept: Json = {};
    for (const path of Object.values(ENUM_PATHS)) {
      const found = dig(schema, path);
      if (found !== undefined) setAt(kept, path, found);
    }
    return { ...out, schema: { openAPIV3Schema: kept } };
  });
  return { ...crd, spec: { group: spec.group, names: spec.names, scope: spec.scope, versions: slimVersions } };
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
