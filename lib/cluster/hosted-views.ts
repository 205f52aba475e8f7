/**
 * A HyperShift management cluster seen as several clusters: its own (everything outside the hosted control-plane
 * namespaces) and one per HostedCluster (the HostedCluster, its NodePools, and what runs in its `<ns>-<name>`
 * namespace). The same detectors then run on each part, so a hosted cluster's findings never land on the
 * management cluster's row and the other way round.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { ResourceName } from '@/lib/k8s/resources';
import type { Snapshot } from '@/lib/health/types';
import { asString, dig } from '@/lib/health/shared/objects';

/** Resources that describe hosted clusters, never the management cluster itself. */
const HOSTED_ONLY: readonly ResourceName[] = [
  'hostedclusters',
  'nodepools',
  'hostedcontrolplanes',
  'controlplanecomponents',
];

/** One HostedCluster found on a management cluster, with the part of the snapshot that is its control plane. */
export interface HostedPart {
  /** `<namespace>/<name>` of the HostedCluster. */
  key: string;
  namespace: string;
  name: string;
  /** The hosted control-plane namespace (`<namespace>-<name>`). */
  hcpNamespace: string;
  /** `spec.clusterID`: the hosted cluster's own ClusterVersion carries the same id. */
  clusterID?: string;
  snapshot: Snapshot;
}

/** A management snapshot split into the management cluster's own part and one part per HostedCluster. */
export interface SplitSnapshot {
  own: Snapshot;
  hosted: HostedPart[];
}

/** The HCP namespace of a HostedCluster (`clusters` + `name` → `clusters-name`), as the hypershift-operator names it. */
export function hcpNamespaceOf(hostedCluster: KubeObject): string {
  return `${hostedCluster.metadata.namespace ?? ''}-${hostedCluster.metadata.name}`;
}

/**
 * The fleet id of a hosted cluster seen from management cluster `managementId`:
 * `<managementId>.<namespace>.<name>`. Namespaces and HostedCluster names are DNS labels (no dots), so the id
 * splits unambiguously from the right, and it stays URL-safe.
 */
export function hostedClusterId(managementId: string, namespace: string, name: string): string {
  return `${managementId}.${namespace}.${name}`;
}

function objectsIn(snapshot: Snapshot, namespaces: ReadonlySet<string>, inside: boolean): Snapshot['objects'] {
  const out: Snapshot['objects'] = {};
  for (const [resource, objects] of Object.entries(snapshot.objects) as [ResourceName, KubeObject[]][]) {
    if (HOSTED_ONLY.includes(resource) && !inside) continue;
    const kept = objects.filter((object) => namespaces.has(object.metadata.namespace ?? '') === inside);
    if (kept.length > 0 || !inside) out[resource] = kept;
  }
  return out;
}

/**
 * Splits a snapshot. Without HostedClusters the whole snapshot is the cluster's own. Transitions, log excerpts and
 * probes follow the namespace of the object they belong to; alerts and latency stay with the management cluster.
 */
export function splitSnapshot(snapshot: Snapshot): SplitSnapshot {
  const hostedClusters = snapshot.objects.hostedclusters ?? [];
  const nodePools = snapshot.objects.nodepools ?? [];
  if (hostedClusters.length === 0 && nodePools.length === 0) return { own: snapshot, hosted: [] };
  // NodePools whose HostedCluster is not in the snapshot (e.g. loose `oc get nodepool -o yaml`) still form a part.
  const orphans = new Map<string, KubeObject>();
  for (const pool of nodePools) {
    const clusterName = asString(dig(pool, 'spec', 'clusterName')) ?? '';
    const owner = hostedClusters.some(
      (hc) => hc.metadata.namespace === pool.metadata.namespace && hc.metadata.name === clusterName,
    );
    const key = `${pool.metadata.namespace ?? ''}/${clusterName}`;
    if (!owner && !orphans.has(key)) {
      orphans.set(key, {
        apiVersion: pool.apiVersion,
        kind: 'HostedCluster',
        metadata: { name: clusterName, namespace: pool.metadata.namespace },
      });
    }
  }
  const hcpNamespaces = new Set([...hostedClusters, ...orphans.values()].map(hcpNamespaceOf));
  const own: Snapshot = {
    ...snapshot,
    objects: objectsIn(snapshot, hcpNamespaces, false),
    transitions: snapshot.transitions.filter(
      (t) => !hcpNamespaces.has(t.ref.namespace ?? '') && !HOSTED_KINDS.has(t.ref.kind),
    ),
    logs: snapshot.logs.filter((excerpt) => !hcpNamespaces.has(excerpt.ref.namespace ?? '')),
    probes: snapshot.probes.filter((probe) => !hcpNamespaces.has(probe.ref.namespace ?? '')),
  };
  const hosted = [...hostedClusters, ...orphans.values()].map((hc): HostedPart => {
    const known = hostedClusters.includes(hc);
    const namespace = hc.metadata.namespace ?? '';
    const name = hc.metadata.name;
    const hcpNamespace = hcpNamespaceOf(hc);
    const inside = new Set([hcpNamespace]);
    const objects = objectsIn(snapshot, inside, true);
    // A HostedCluster stands only for itself: an orphan part has NodePools and nothing else to show.
    objects.hostedclusters = known ? [hc] : [];
    objects.nodepools = (snapshot.objects.nodepools ?? []).filter(
      (pool) => pool.metadata.namespace === namespace && asString(dig(pool, 'spec', 'clusterName')) === name,
    );
    const belongs = (ref: { kind: string; name: string; namespace?: string }) =>
      ref.namespace === hcpNamespace ||
      (ref.kind === 'HostedCluster' && ref.namespace === namespace && ref.name === name) ||
      (ref.kind === 'NodePool' &&
        objects.nodepools!.some(
          (pool) => pool.metadata.name === ref.name && pool.metadata.namespace === ref.namespace,
        ));
    return {
      key: `${namespace}/${name}`,
      namespace,
      name,
      hcpNamespace,
      clusterID: asString(dig(hc, 'spec', 'clusterID')),
      snapshot: {
        objects,
        transitions: snapshot.transitions.filter((t) => belongs(t.ref)),
        logs: snapshot.logs.filter((excerpt) => excerpt.ref.namespace === hcpNamespace),
        probes: snapshot.probes.filter((probe) => probe.ref.namespace === hcpNamespace),
      },
    };
  });
  return { own, hosted };
}

const HOSTED_KINDS = new Set(['HostedCluster', 'NodePool', 'HostedControlPlane', 'ControlPlaneComponent']);
