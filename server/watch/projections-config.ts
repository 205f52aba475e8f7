import 'server-only';
import type { ResourceName } from '@/lib/k8s/resources';
import type { KubeObject } from '@/lib/k8s/types';
import { capabilityEnumsOnly } from '@/lib/release/crd-capability-enums';
import { defined, record, sharedValue } from './projections-strings';

/**
 * The FeatureGate with only the version of each `status.featureGates[]` entry (what failure A reads): the enabled
 * and disabled gate lists are hundreds of names per version.
 */
function featureGateVersions(object: KubeObject): KubeObject {
  const status = record(object.status);
  if (!Array.isArray(status.featureGates)) return object;
  const featureGates = status.featureGates.map((entry: unknown) => defined({ version: record(entry).version }));
  return { ...object, status: { ...status, featureGates } };
}

/**
 * The cluster-configuration kinds reduced to what the detectors read: the ClusterVersion CRD to its capability
 * enums, a FeatureGate to the version of each of its gate lists. Other kinds are returned as they are.
 */
export function configProjection(resource: ResourceName, object: KubeObject): KubeObject {
  if (resource === 'customresourcedefinitions') return capabilityEnumsOnly(object);
  if (resource === 'featuregates') return featureGateVersions(object);
  return object;
}

/**
 * The ClusterVersion with its update lists (`availableUpdates`, `conditionalUpdates` with their risks) shared with
 * every other cluster offered the same ones: they are most of a ClusterVersion's size, and the same across a fleet.
 * Call it on the finished projection (shared parts are frozen).
 */
export function sharedUpdateLists(object: KubeObject): KubeObject {
  const status = record(object.status);
  if (!Array.isArray(status.availableUpdates) && !Array.isArray(status.conditionalUpdates)) return object;
  const lists: Record<string, unknown> = {};
  for (const key of ['availableUpdates', 'conditionalUpdates'])
    if (Array.isArray(status[key])) lists[key] = sharedValue(status[key]);
  return { ...object, status: { ...status, ...lists } };
}
