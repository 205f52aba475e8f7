/**
 * Update progress of a hosted cluster from its management cluster, in the shape `oc adm upgrade status` gives a
 * standalone one: the control plane from HostedCluster `status.version` and the ControlPlaneComponents (the
 * management-side "operators"), worker pools from NodePools (updated/total nodes from `status.nodesInfo`, or
 * from `status.version` and `status.replicas` when an older HyperShift does not report per-version counts).
 */
import type { KubeObject } from '@/lib/k8s/types';
import type { UpdateInsight, UpdateProgress, WorkerPoolProgress } from '@/lib/health/update-progress/types';
import { asArray, asNumber, asObject, asString, dig, timeOf } from '@/lib/health/shared/objects';
import { conditionOf } from '@/lib/k8s/conditions';
import { refOf } from '@/lib/k8s/refs';
import { historyOf, versionOfReleaseImage } from '@/lib/k8s/cluster-version';

/** The release history with a version on every entry: an early install's has none yet, its image tag names it. */
function releaseHistory(hc: KubeObject | undefined) {
  return historyOf(hc).map((h) => ({
    version: h.version || versionOfReleaseImage(h.image) || '',
    state: h.state ?? '',
    startedTime: h.startedTime || undefined,
    completionTime: h.completionTime || undefined,
  }));
}

/** The release a NodePool is asked to run. */
export function nodePoolTarget(pool: KubeObject): string | undefined {
  return versionOfReleaseImage(asString(dig(pool, 'spec', 'release', 'image')));
}

/** One NodePool as a worker pool. */
export function nodePoolProgress(pool: KubeObject): WorkerPoolProgress {
  const target = nodePoolTarget(pool) ?? asString(dig(pool, 'status', 'version')) ?? '';
  const versions = asArray(dig(pool, 'status', 'nodesInfo', 'nodeVersions')).map((v) => asObject(v) ?? {});
  const count = (v: Record<string, unknown>) => (asNumber(v.readyNodeCount) ?? 0) + (asNumber(v.unreadyNodeCount) ?? 0);
  const current = asString(dig(pool, 'status', 'version'));
  const available = asNumber(dig(pool, 'status', 'replicas')) ?? 0;
  const updatingVersion = conditionOf(pool, 'UpdatingVersion');
  const updatingConfig = conditionOf(pool, 'UpdatingConfig');
  // nodesInfo counts nodes per release only: a config-only replace shows as progressing, not in the counts.
  const updating = updatingVersion?.status === 'True' || updatingConfig?.status === 'True';
  const total =
    asNumber(dig(pool, 'spec', 'replicas')) ??
    (versions.length ? versions.reduce((sum, v) => sum + count(v), 0) : available);
  const updated = versions.length
    ? Math.min(
        total,
        versions
          .filter((v) => asString(v.ocpVersion) === target)
          .reduce((sum, v) => sum + (asNumber(v.readyNodeCount) ?? 0), 0),
      )
    : current === target && updatingVersion?.status !== 'True'
      ? Math.min(total, available)
      : 0;
  const failed = updatingVersion?.status === 'False' && updatingVersion.reason === 'InplaceUpgradeFailed';
  const assessment: WorkerPoolProgress['assessment'] =
    total === 0
      ? 'Empty'
      : failed || conditionOf(pool, 'Ready')?.status === 'False'
        ? 'Degraded'
        : updated >= total && !updating
          ? 'Completed'
          : updating
            ? 'Progressing'
            : 'Pending';
  return {
    name: pool.metadata.name,
    assessment,
    completionPercent: total ? Math.round((updated / total) * 100) : 100,
    updatedNodes: updated,
    totalNodes: total,
    availableNodes: available,
    outdatedNodes: Math.max(0, total - updated),
    nodes: [],
    ...(updatingVersion?.message || updatingConfig?.message
      ? { message: updatingVersion?.message || updatingConfig?.message }
      : {}),
  } as WorkerPoolProgress;
}

function insight(
  hc: KubeObject | undefined,
  type: string,
  level: UpdateInsight['level'],
  impact: string,
): UpdateInsight | undefined {
  if (!hc) return undefined;
  const condition = conditionOf(hc, type);
  const bad = type === 'Degraded' ? condition?.status === 'True' : condition?.status === 'False';
  if (!condition || !bad) return undefined;
  const ref = refOf(hc);
  return {
    id: `hosted-${type.toLowerCase()}`,
    level,
    impact,
    message: `HostedCluster ${ref.namespace}/${ref.name} ${type}=${condition.status}${condition.reason ? ` (${condition.reason})` : ''}`,
    description: condition.message ?? '',
    since: condition.lastTransitionTime ?? null,
    scope: 'ControlPlane',
    condition: {
      type,
      status: condition.status,
      reason: condition.reason,
      message: condition.message,
      lastTransitionTime: condition.lastTransitionTime,
    },
  };
}

/** Update progress of the hosted cluster of `hostedCluster`, its ControlPlaneComponents and NodePools, at `now`. */
export function computeHostedUpdateProgress(
  hostedCluster: KubeObject | undefined,
  components: readonly KubeObject[],
  nodePools: readonly KubeObject[],
  now: number,
): UpdateProgress {
  const history = releaseHistory(hostedCluster);
  const desired =
    asString(dig(hostedCluster, 'status', 'version', 'desired', 'version')) ||
    versionOfReleaseImage(asString(dig(hostedCluster, 'status', 'version', 'desired', 'image'))) ||
    history[0]?.version ||
    null;
  const partial = history[0]?.state === 'Partial';
  const previous = partial
    ? ((history.slice(1).find((h) => h.state === 'Completed') ?? history[1])?.version ?? null)
    : (history[1]?.version ?? null);
  const available = (cpc: KubeObject) => conditionOf(cpc, 'Available')?.status === 'True';
  const updated = components.filter((cpc) => asString(dig(cpc, 'status', 'version')) === desired && available(cpc));
  const unavailable = components.filter((cpc) => conditionOf(cpc, 'Available')?.status === 'False');
  const rolling = components.filter(
    (cpc) => !updated.includes(cpc) && conditionOf(cpc, 'RolloutComplete')?.status === 'False',
  );
  const total = components.length;
  const stalled =
    partial &&
    (conditionOf(hostedCluster, 'ClusterVersionSucceeding')?.status === 'False' ||
      conditionOf(hostedCluster, 'Available')?.status === 'False');
  const started = partial ? (history[0]?.startedTime ?? null) : null;
  const completed = !partial ? (history[0]?.completionTime ?? null) : null;
  const startMs = timeOf(started);
  const workerPools = nodePools.map(nodePoolProgress);
  const insights = [
    insight(hostedCluster, 'ClusterVersionSucceeding', 'Error', 'Update Stalled'),
    insight(hostedCluster, 'Available', 'Error', 'API Availability'),
    insight(hostedCluster, 'Degraded', 'Warning', 'Update Speed'),
  ].filter((entry): entry is UpdateInsight => entry !== undefined);
  return {
    updating: partial || workerPools.some((pool) => pool.assessment === 'Progressing'),
    evaluatedAt: new Date(now).toISOString(),
    controlPlane: {
      assessment: !history.length ? 'Unknown' : !partial ? 'Completed' : stalled ? 'Stalled' : 'Progressing',
      targetVersion: desired,
      previousVersion: previous,
      previousPartial: false,
      targetIsInstall: partial && history.length === 1,
      completionPercent: !partial ? 100 : total ? Math.round((updated.length / total) * 100) : 0,
      operators: {
        updated: updated.length,
        updating: rolling.length,
        waiting: Math.max(0, total - updated.length - rolling.length),
        total,
      },
      health: { healthy: total - unavailable.length, unavailable: unavailable.length, degraded: 0 },
      startedAt: started,
      completedAt: completed,
      durationSeconds: startMs !== undefined ? Math.max(0, Math.round((now - startMs) / 1000)) : null,
      estimatedRemainingSeconds: null,
      estimatedDurationSeconds: null,
      estimateLabel: null,
      updatingOperators: [...new Set([...unavailable, ...rolling].map((cpc) => cpc.metadata.name))],
      updatingOperatorDetails: [],
      nodes: [],
      nodesCompletionPercent: null,
    },
    workerPools,
    insights,
  };
}
