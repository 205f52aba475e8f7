import 'server-only';
import type { ResourceName } from '@/lib/k8s/resources';
import type { KubeObject } from '@/lib/k8s/types';
import { defined, record, type Json } from './projections-strings';

/**
 * Fields of other kinds that no detector reads and that are large in real clusters, dropped on the way into the
 * cache (as client-go's SetTransform does). The detectors' results on real objects are the same with and without
 * them (projections-detectors.test.ts).
 */
const UNREAD_FIELDS: Partial<Record<ResourceName, readonly (readonly [string, string])[]>> = {
  // Every image on the node with its tags and digests (tens of kilobytes per node), and its volumes.
  nodes: [
    ['status', 'images'],
    ['status', 'volumesAttached'],
    ['status', 'volumesInUse'],
  ],
  // The rendered Ignition config, up to megabytes per MachineConfig: only its release-version annotation is read.
  machineconfigs: [['', 'spec']],
  // The namespaces and objects each operator relates to: only conditions and versions are read.
  clusteroperators: [['status', 'relatedObjects']],
};

function withoutFields(object: KubeObject, fields: readonly (readonly [string, string])[]): KubeObject {
  const out: Json = { ...object };
  for (const [parent, field] of fields) {
    if (parent === '') {
      if (field in out) out[field] = undefined;
      continue;
    }
    const holder = record(out[parent]);
    if (field in holder) out[parent] = defined({ ...holder, [field]: undefined });
  }
  return defined(out) as KubeObject;
}

/** Nodes, MachineConfigs and ClusterOperators without the large fields no detector reads; other kinds as they are. */
export function withoutUnreadFields(resource: ResourceName, object: KubeObject): KubeObject {
  const unread = UNREAD_FIELDS[resource];
  return unread ? withoutFields(object, unread) : object;
}
