/**
 * The one explicit list of detectors, and the inputs they declare: the server starts exactly the watches and log
 * polls this file derives, so a detector cannot read what nobody watches.
 */
import type { Detector, LogNeed, ResourceNeed } from '@/lib/health/types';
import { featureGateCoverage } from '@/lib/health/detectors/featuregate-coverage/featuregate-coverage';
import { statusWriteRejection } from '@/lib/health/detectors/status-write-rejection/status-write-rejection';
import { catalogReplicas } from '@/lib/health/detectors/catalog-replicas/catalog-replicas';
import { podSetupLatency } from '@/lib/health/detectors/pod-setup-latency/pod-setup-latency';
import { installSettling } from '@/lib/health/detectors/install-settling/install-settling';
import { updateProgress } from '@/lib/health/detectors/update-progress/update-progress';
import { hostedControlPlane } from '@/lib/health/detectors/hosted-control-plane/hosted-control-plane';
import { nodeDrain } from '@/lib/health/detectors/node-drain/node-drain';

/** Every detector, in the order the dashboard shows their panels. */
export const DETECTORS: readonly Detector[] = [
  updateProgress,
  featureGateCoverage,
  statusWriteRejection,
  catalogReplicas,
  podSetupLatency,
  installSettling,
  hostedControlPlane,
  nodeDrain,
];

/**
 * The union of the detectors' resource needs, deduplicated: a need for a whole resource (no namespace, no name)
 * absorbs every narrower need of that resource, and a namespace-wide need absorbs named needs in that namespace.
 * Order: first appearance.
 */
export function requiredResources(detectors: readonly Detector[]): ResourceNeed[] {
  return dedupeNeeds(detectors.flatMap((d) => d.needs));
}

/** {@link requiredResources} over a list of needs (one tier's, see `lib/health/tiers.ts`). */
export function dedupeNeeds(all: readonly ResourceNeed[]): ResourceNeed[] {
  const covers = (wide: ResourceNeed, narrow: ResourceNeed): boolean =>
    wide.resource === narrow.resource &&
    (wide.namespace === undefined || wide.namespace === narrow.namespace) &&
    (wide.name === undefined || wide.name === narrow.name);
  const out: ResourceNeed[] = [];
  for (const need of all) {
    if (out.some((kept) => covers(kept, need))) continue;
    if (all.some((other) => other !== need && covers(other, need) && !covers(need, other))) continue;
    // Optional only when every need of the resource is (a core need must be watched everywhere).
    const optional = all.filter((other) => other.resource === need.resource).every((other) => other.optional);
    const { optional: _ignored, ...rest } = need;
    void _ignored;
    out.push(optional ? { ...rest, optional: true } : rest);
  }
  return out;
}

/** The union of the detectors' log needs, deduplicated on namespace, selector and container (largest tail wins). */
export function requiredLogs(detectors: readonly Detector[]): LogNeed[] {
  const byKey = new Map<string, LogNeed>();
  for (const need of detectors.flatMap((d) => d.logs ?? [])) {
    const key = `${need.namespace}\u0000${need.labelSelector}\u0000${need.container}`;
    const prev = byKey.get(key);
    byKey.set(key, prev ? { ...prev, tailLines: Math.max(prev.tailLines, need.tailLines) } : { ...need });
  }
  return [...byKey.values()];
}
