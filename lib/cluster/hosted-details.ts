/**
 * What the hosted cluster page shows about the control plane, from a hosted part of a management snapshot:
 * HostedCluster conditions, the ControlPlaneComponents and pods of the HCP namespace (`kubectl get pods` style
 * READY/STATUS/RESTARTS), and the NodePools.
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { ClusterInfoDto, HostedDetailsDto } from '@/lib/api/dto';
import type { Snapshot } from '@/lib/health/types';
import { asArray, asNumber, asObject, asString, dig, objectsOf } from '@/lib/health/shared/objects';
import { conditionOf, conditionsOf } from '@/lib/k8s/conditions';
import { nodePoolTarget } from '@/lib/health/update-progress/hosted-update-progress';
import { historyOf, versionOfReleaseImage } from '@/lib/k8s/cluster-version';

function podStatus(pod: KubeObject): { ready: string; status: string; restarts: number } {
  const statuses = asArray(dig(pod, 'status', 'containerStatuses')).map((s) => asObject(s) ?? {});
  const containers = asArray(dig(pod, 'spec', 'containers')).length || statuses.length;
  let status = asString(dig(pod, 'status', 'reason')) ?? asString(dig(pod, 'status', 'phase')) ?? 'Pending';
  for (const s of statuses) {
    const reason = asString(dig(s, 'state', 'waiting', 'reason')) ?? asString(dig(s, 'state', 'terminated', 'reason'));
    if (reason) {
      status = reason;
      break;
    }
  }
  if (pod.metadata.deletionTimestamp) status = 'Terminating';
  return {
    ready: `${statuses.filter((s) => s.ready === true).length}/${containers}`,
    status,
    restarts: statuses.reduce((sum, s) => sum + (asNumber(s.restartCount) ?? 0), 0),
  };
}

/** The control-plane details of the one HostedCluster of a hosted snapshot (undefined when there is none). */
export function hostedDetails(snapshot: Snapshot): HostedDetailsDto | undefined {
  const [hc, ...others] = objectsOf(snapshot, 'hostedclusters');
  const [firstPool] = objectsOf(snapshot, 'nodepools');
  if (others.length || (!hc && !firstPool)) return undefined;
  const namespace = (hc ?? firstPool).metadata.namespace ?? '';
  const name = hc?.metadata.name ?? asString(dig(firstPool, 'spec', 'clusterName')) ?? '';
  const hcpNamespace = `${namespace}-${name}`;
  return {
    namespace,
    name,
    hcpNamespace,
    platform: asString(dig(hc, 'spec', 'platform', 'type')) ?? null,
    conditions: conditionsOf(hc ?? {}).map((c) => ({
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
    })),
    components: objectsOf(snapshot, 'controlplanecomponents', hcpNamespace)
      .map((cpc) => ({
        name: cpc.metadata.name,
        version: asString(dig(cpc, 'status', 'version')) ?? null,
        available: conditionOf(cpc, 'Available')?.status ?? null,
        rolloutComplete: conditionOf(cpc, 'RolloutComplete')?.status ?? null,
        message:
          conditionOf(cpc, 'Available')?.status === 'True'
            ? (conditionOf(cpc, 'RolloutComplete')?.message ?? '')
            : (conditionOf(cpc, 'Available')?.message ?? ''),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    pods: objectsOf(snapshot, 'pods', hcpNamespace)
      .map((pod) => ({
        name: pod.metadata.name,
        ...podStatus(pod),
        component:
          pod.metadata.labels?.['hypershift.openshift.io/control-plane-component'] ?? pod.metadata.labels?.app ?? null,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    nodePools: objectsOf(snapshot, 'nodepools')
      .map((pool) => ({
        name: pool.metadata.name,
        desiredNodes: asNumber(dig(pool, 'spec', 'replicas')) ?? null,
        currentNodes: asNumber(dig(pool, 'status', 'replicas')) ?? null,
        version: asString(dig(pool, 'status', 'version')) ?? null,
        targetVersion: nodePoolTarget(pool) ?? null,
        updating:
          conditionOf(pool, 'UpdatingVersion')?.status === 'True' ||
          conditionOf(pool, 'UpdatingConfig')?.status === 'True',
        message: conditionOf(pool, 'UpdatingVersion')?.message || conditionOf(pool, 'Ready')?.message || '',
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/**
 * {@link ClusterInfoDto} of a hosted cluster from its HostedCluster: history from `status.version.history`
 * (versions from the release image when an early install has none yet), desired from `status.version.desired`.
 */
export function hostedClusterInfo(id: string, name: string, hc: KubeObject | undefined): ClusterInfoDto {
  const history = historyOf(hc).map((entry) => {
    const image = entry.image ?? '';
    return {
      version: entry.version || versionOfReleaseImage(image) || '',
      state: entry.state ?? 'Unknown',
      startedTime: entry.startedTime || null,
      completionTime: entry.completionTime || null,
      image,
    };
  });
  const desired =
    asString(dig(hc, 'status', 'version', 'desired', 'version')) ||
    versionOfReleaseImage(
      asString(dig(hc, 'status', 'version', 'desired', 'image')) ?? asString(dig(hc, 'spec', 'release', 'image')),
    ) ||
    null;
  const completed = history.find((entry) => entry.state === 'Completed');
  return {
    id,
    name,
    role: 'hosted',
    version: completed?.version || desired,
    desiredVersion: desired,
    channel: asString(dig(hc, 'spec', 'channel')) ?? null,
    history,
  };
}
