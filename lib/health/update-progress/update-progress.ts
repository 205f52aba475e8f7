/**
 * Update progress: the semantics of `oc adm upgrade status` (openshift/oc `pkg/cli/admin/upgrade/status/`) as pure
 * JSON. The `update-progress` detector (lib/health/detectors/update-progress) computes it once per evaluation and
 * returns it with its findings, so the served health shows the very progress the findings were derived from.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { conditionOf, isTrue, transitionTimeMs } from '@/lib/k8s/conditions';
import { historyOf } from '@/lib/k8s/cluster-version';
import type { Snapshot } from '@/lib/health/types';
import { findObject, objectsOf } from '@/lib/health/shared/objects';
import type { Alert, UpdateProgress, WorkerPoolProgress } from '@/lib/health/update-progress/types';
import { alertInsights, finalizeInsights, type RawInsight } from '@/lib/health/update-progress/insights';
import {
  assessControlPlane,
  isMultiArchMigration,
  machineConfigOperatorImage,
} from '@/lib/health/update-progress/control-plane';
import { assessNodes, assessPool, type AssessedNode, type AssessedPool } from '@/lib/health/update-progress/nodes';
import {
  SECOND_MS,
  formatTime,
  parseTime,
  roundDuration,
  roundPercent,
  specOf,
} from '@/lib/health/update-progress/util';
import { matchesSelector, type LabelSelector } from '@/lib/k8s/selectors';

/** What {@link computeUpdateProgress} reads: the objects `oc adm upgrade status` reads, plus current alerts. */
export interface UpdateProgressInput {
  clusterVersion?: KubeObject;
  clusterOperators: readonly KubeObject[];
  machineConfigPools: readonly KubeObject[];
  machineConfigs: readonly KubeObject[];
  nodes: readonly KubeObject[];
  /** Firing and pending alerts from the cluster's Prometheus; absent when no alerts source answered. */
  alerts?: Alert[];
  /**
   * The `machine-config-operator` Deployment (namespace `openshift-machine-config-operator`): the image it runs tells
   * whether machine-config reached the target during a multi-arch migration, where versions do not change.
   */
  mcoDeployment?: KubeObject;
}

/** Namespace and name of the Deployment read into {@link UpdateProgressInput.mcoDeployment}. */
export const MCO_DEPLOYMENT = {
  namespace: 'openshift-machine-config-operator',
  name: 'machine-config-operator',
} as const;

function selectorOf(pool: KubeObject): LabelSelector | undefined {
  return specOf(pool).nodeSelector as LabelSelector | undefined;
}

/** `oc`'s node-to-pool rule: master first, then custom pools (in list order), then worker. */
function poolOfNode(node: KubeObject, pools: readonly KubeObject[]): string | undefined {
  const labels = node.metadata.labels;
  const master = pools.find((pool) => pool.metadata.name === 'master');
  if (master && matchesSelector(selectorOf(master), labels)) return 'master';
  const custom = pools.find(
    (pool) =>
      pool.metadata.name !== 'master' && pool.metadata.name !== 'worker' && matchesSelector(selectorOf(pool), labels),
  );
  if (custom) return custom.metadata.name;
  const worker = pools.find((pool) => pool.metadata.name === 'worker');
  if (worker && matchesSelector(selectorOf(worker), labels)) return 'worker';
  return undefined;
}

function publicNodes(nodes: AssessedNode[]): UpdateProgress['controlPlane']['nodes'] {
  return nodes.map(({ name, assessment, phase, version, estimate, message }) => ({
    name,
    assessment,
    phase,
    version,
    estimate,
    message,
  }));
}

function workerPool(pool: AssessedPool): WorkerPoolProgress {
  const { counts } = pool;
  return {
    name: pool.name,
    assessment: pool.assessment,
    completionPercent: roundPercent(pool.completionPercent),
    updatedNodes: counts.total - counts.outdated,
    totalNodes: counts.total,
    availableNodes: counts.available,
    progressingNodes: counts.progressing,
    drainingNodes: counts.draining,
    degradedNodes: counts.degraded,
    excludedNodes: counts.excluded,
    outdatedNodes: counts.outdated,
    nodes: publicNodes(pool.nodes),
  };
}

function emptyProgress(now: number, workerPools: WorkerPoolProgress[] = []): UpdateProgress {
  return {
    updating: false,
    evaluatedAt: formatTime(now) ?? '',
    controlPlane: {
      assessment: 'Unknown',
      targetVersion: null,
      previousVersion: null,
      previousPartial: false,
      targetIsInstall: false,
      completionPercent: 0,
      operators: { updated: 0, updating: 0, waiting: 0, total: 0 },
      health: { healthy: 0, unavailable: 0, degraded: 0 },
      startedAt: null,
      completedAt: null,
      durationSeconds: null,
      estimatedRemainingSeconds: null,
      estimatedDurationSeconds: null,
      estimateLabel: null,
      updatingOperators: [],
      updatingOperatorDetails: [],
      nodes: [],
      nodesCompletionPercent: null,
    },
    workerPools,
    insights: [],
  };
}

/**
 * Computes `oc adm upgrade status` for the given objects at `now` (epoch ms). Pure: the same input and clock give the
 * same output. Without a ClusterVersion the control plane is `Unknown` and nothing is updating.
 */
export function computeUpdateProgress(input: UpdateProgressInput, now: number): UpdateProgress {
  const cv = input.clusterVersion;
  if (!cv) return emptyProgress(now);
  const history = historyOf(cv);
  const targetVersion = history[0]?.version || undefined;
  const machineConfigs = new Map(input.machineConfigs.map((mc) => [mc.metadata.name, mc]));

  const nodesPerPool = new Map<string, KubeObject[]>();
  for (const node of input.nodes) {
    const pool = poolOfNode(node, input.machineConfigPools);
    if (pool === undefined) continue;
    nodesPerPool.set(pool, [...(nodesPerPool.get(pool) ?? []), node]);
  }

  const progressing = conditionOf(cv, 'Progressing');
  // Nodes may still be migrating after Progressing ends; oc accepts that (the cluster can already run cross-arch
  // machines) and judges nodes by version again.
  const multiArchMigrationInProgress = isMultiArchMigration(history) && isTrue(progressing);
  const insights: RawInsight[] = [];
  let master: AssessedPool | undefined;
  const workers: AssessedPool[] = [];
  for (const pool of input.machineConfigPools) {
    const assessed = assessNodes(pool, nodesPerPool.get(pool.metadata.name) ?? [], {
      machineConfigs,
      targetVersion,
      now,
      multiArchMigrationInProgress,
    });
    insights.push(...assessed.insights);
    const summary = assessPool(pool, assessed.nodes);
    insights.push(...summary.insights);
    if (pool.metadata.name === 'master') master = summary.pool;
    else workers.push(summary.pool);
  }

  const workerOutdated = workers.some((pool) => pool.counts.total > 0 && pool.completionPercent !== 100);
  const updating = isTrue(progressing) || workerOutdated;

  const startedAt = parseTime(history[0]?.startedTime) ?? transitionTimeMs(progressing);
  const updatingFor = startedAt === undefined ? undefined : roundDuration(now - startedAt, SECOND_MS);
  insights.push(...alertInsights(input.alerts ?? [], startedAt));

  const controlPlane = assessControlPlane(
    cv,
    input.clusterOperators,
    now,
    machineConfigOperatorImage(input.mcoDeployment),
  );
  insights.push(...controlPlane.insights);

  return {
    updating,
    evaluatedAt: formatTime(now) ?? '',
    controlPlane: {
      ...controlPlane.core,
      nodes: publicNodes(master?.nodes ?? []),
      nodesCompletionPercent: master ? roundPercent(master.completionPercent) : null,
    },
    workerPools: workers.map(workerPool),
    insights: updating ? finalizeInsights(insights, updatingFor === undefined ? undefined : now - updatingFor) : [],
  };
}

/** Reads the update-progress input out of a detector snapshot (alerts aside: see {@link snapshotUpdateProgress}). */
export function updateProgressInputFromSnapshot(snapshot: Snapshot): UpdateProgressInput {
  const versions = objectsOf(snapshot, 'clusterversions');
  return {
    clusterVersion: versions.find((cv) => cv.metadata.name === 'version') ?? versions[0],
    clusterOperators: objectsOf(snapshot, 'clusteroperators'),
    machineConfigPools: objectsOf(snapshot, 'machineconfigpools'),
    machineConfigs: objectsOf(snapshot, 'machineconfigs'),
    nodes: objectsOf(snapshot, 'nodes'),
    mcoDeployment: findObject(snapshot, 'deployments', MCO_DEPLOYMENT.name, MCO_DEPLOYMENT.namespace),
  };
}

/** The update progress of a snapshot at `now`, with the snapshot's alerts. */
export function snapshotUpdateProgress(snapshot: Snapshot, now: number): UpdateProgress {
  return computeUpdateProgress({ ...updateProgressInputFromSnapshot(snapshot), alerts: snapshot.alerts }, now);
}
