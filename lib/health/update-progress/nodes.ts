/**
 * Node and MachineConfigPool assessment of an update, following `oc adm upgrade status` (openshift/oc
 * `pkg/cli/admin/upgrade/status/workerpool.go` and `mco/layered_node_state.go`). A node's version is the
 * `release-image-version` annotation of its current MachineConfig; its phase comes from the machine-config daemon
 * annotations on the node.
 */
import type { KubeObject } from '@/lib/k8s/types';
import { conditionsOf } from '@/lib/k8s/conditions';
import type { NodeAssessment, NodePhase, NodeProgress, PoolAssessment } from '@/lib/health/update-progress/types';
import { LEVEL, type RawInsight } from '@/lib/health/update-progress/insights';
import { MINUTE_MS, annotation, parseTime, specOf } from '@/lib/health/update-progress/util';

const MC = 'machineconfiguration.openshift.io';
/** Node annotation: the MachineConfig the node runs. */
export const CURRENT_CONFIG = `${MC}/currentConfig`;
/** Node annotation: the MachineConfig the node should run. */
export const DESIRED_CONFIG = `${MC}/desiredConfig`;
/** Node annotation: machine-config daemon state (Done, Working, Rebooting, Degraded, Unreconcilable). */
export const MCD_STATE = `${MC}/state`;
/** Node annotation: human-readable reason of a Degraded/Unreconcilable daemon state. */
export const MCD_REASON = `${MC}/reason`;
/** MachineConfig annotation: the OpenShift version the rendered config belongs to. */
export const RELEASE_IMAGE_VERSION = `${MC}/release-image-version`;
/** Node annotation: the drain (`drain-<config>`) or uncordon the machine-config controller wants applied. */
export const DESIRED_DRAIN = `${MC}/desiredDrain`;
/** Node annotation: the drain or uncordon the controller last finished. */
export const LAST_APPLIED_DRAIN = `${MC}/lastAppliedDrain`;
const DESIRED_IMAGE = `${MC}/desiredImage`;
const CURRENT_IMAGE = `${MC}/currentImage`;
const MCO_DOC =
  'https://docs.openshift.com/container-platform/latest/post_installation_configuration/machine-configuration-tasks.html#understanding-the-machine-config-operator';
const PAUSED_DOC =
  'https://docs.openshift.com/container-platform/latest/support/troubleshooting/troubleshooting-operator-issues.html#troubleshooting-disabling-autoreboot-mco_troubleshooting-operator-issues';

const ASSESSMENT_ORDER: NodeAssessment[] = [
  'Degraded',
  'Unavailable',
  'Progressing',
  'Excluded',
  'Outdated',
  'Completed',
  'Unknown',
];
const PHASE_ORDER: NodePhase[] = ['Draining', 'Updating', 'Rebooting', 'Paused', 'Pending', 'Updated', 'Unknown'];

const NOT_READY = 'Not ready';
const DISK_PRESSURE = 'Disk pressure';
const NETWORK_UNAVAILABLE = 'Network unavailable';
const UNSCHEDULABLE = 'Node is marked unschedulable';
const MCD_WORKING = 'Machine Config Daemon is processing the node';

interface BadCondition {
  reason: string;
  message: string;
  since?: number;
}

/** A node row plus the flags the pool summary needs. */
export interface AssessedNode extends NodeProgress {
  isUnavailable: boolean;
  isDegraded: boolean;
  isUpdating: boolean;
  isUpdated: boolean;
}

/** A pool's assessment with its node counts. */
export interface AssessedPool {
  name: string;
  assessment: PoolAssessment;
  completionPercent: number;
  counts: {
    total: number;
    available: number;
    progressing: number;
    outdated: number;
    draining: number;
    excluded: number;
    degraded: number;
    updated: number;
  };
  nodes: AssessedNode[];
}

function mcVersion(machineConfigs: Map<string, KubeObject>, name: string | undefined): string | undefined {
  const mc = name ? machineConfigs.get(name) : undefined;
  const version = mc ? annotation(mc, RELEASE_IMAGE_VERSION) : undefined;
  return version || undefined;
}

function readinessProblems(node: KubeObject): BadCondition[] {
  const out: BadCondition[] = [];
  for (const condition of conditionsOf(node)) {
    const base = { message: condition.message ?? '', since: parseTime(condition.lastTransitionTime) };
    if (condition.type === 'Ready' && condition.status !== 'True') out.push({ reason: NOT_READY, ...base });
    if (condition.type === 'DiskPressure' && condition.status !== 'False') out.push({ reason: DISK_PRESSURE, ...base });
    if (condition.type === 'NetworkUnavailable' && condition.status !== 'False')
      out.push({ reason: NETWORK_UNAVAILABLE, ...base });
  }
  if (specOf(node).unschedulable === true) out.push({ reason: UNSCHEDULABLE, message: '' });
  return out;
}

function isNodeDone(node: KubeObject): boolean {
  const current = annotation(node, CURRENT_CONFIG);
  const desired = annotation(node, DESIRED_CONFIG);
  if (!current || !desired || current !== desired) return false;
  const desiredImage = annotation(node, DESIRED_IMAGE);
  const currentImage = annotation(node, CURRENT_IMAGE);
  if (desiredImage !== undefined || currentImage !== undefined) {
    if (!desiredImage || !currentImage || desiredImage !== currentImage) return false;
  }
  return annotation(node, MCD_STATE) === 'Done';
}

function desiredImageMatchesPool(node: KubeObject, pool: KubeObject, problems: BadCondition[]): boolean {
  const value = annotation(node, DESIRED_IMAGE);
  const layered = pool.metadata.labels !== undefined && `${MC}/layering-enabled` in pool.metadata.labels;
  const osImage = annotation(pool, `${MC}/newestImageEquivalentConfig`);
  if (layered && osImage) {
    if (osImage === value) return true;
    problems.push({
      reason: `Node has an unexpected annotation ${MC}/newestImageEquivalentConfig=${osImage}`,
      message: '',
    });
    return false;
  }
  return !value;
}

/** `LayeredNodeState.IsUnavailable`: collects the reasons into `problems`. */
function isUnavailable(node: KubeObject, pool: KubeObject, problems: BadCondition[]): boolean {
  problems.push(...readinessProblems(node));
  let unavailable = problems.length > 0;
  if (!unavailable && !isNodeDone(node)) {
    const state = annotation(node, MCD_STATE);
    if (state !== 'Degraded' && state !== 'Unreconcilable') {
      problems.push({ reason: MCD_WORKING, message: '' });
      unavailable = true;
    }
  }
  return unavailable && desiredImageMatchesPool(node, pool, problems);
}

function seriouslyUnavailable(problems: BadCondition[], now: number): boolean {
  return problems.some((p) => {
    if (p.reason === UNSCHEDULABLE || p.reason === MCD_WORKING) return false;
    const age = p.since === undefined ? Number.POSITIVE_INFINITY : now - p.since;
    if (p.reason === NOT_READY && age < 5 * MINUTE_MS) return false;
    if ((p.reason === DISK_PRESSURE || p.reason === NETWORK_UNAVAILABLE) && age < MINUTE_MS) return false;
    return true;
  });
}

function unavailableMessage(problems: BadCondition[], name: string): string {
  return problems
    .map((p) => {
      if (p.reason === NOT_READY) return `Node ${name} is not ready`;
      if (p.reason === DISK_PRESSURE) return `Node ${name} has disk pressure`;
      if (p.reason === NETWORK_UNAVAILABLE) return `Node ${name} has unavailable network`;
      return p.reason;
    })
    .join(' | ');
}

function unavailableDescription(problems: BadCondition[]): string {
  const types: Record<string, [string, string]> = {
    [NOT_READY]: ['Ready', 'True'],
    [DISK_PRESSURE]: ['DiskPressure', 'False'],
    [NETWORK_UNAVAILABLE]: ['NetworkUnavailable', 'False'],
  };
  return problems
    .map((p) => {
      const type = types[p.reason];
      return type
        ? `Node has a ${type[0]}!=${type[1]} condition with Reason ${JSON.stringify(p.reason)} and message ${JSON.stringify(p.message)}`
        : p.reason;
    })
    .join(' | ');
}

function isDraining(node: KubeObject, updating: boolean): boolean {
  const desired = annotation(node, DESIRED_DRAIN);
  const applied = annotation(node, LAST_APPLIED_DRAIN);
  if (!desired || !applied) return false;
  if (desired !== applied && desired.split('-')[0] === 'drain') return true;
  // The daemon may not have moved from Done to Working yet; report draining rather than completed.
  return updating && annotation(node, MCD_STATE) === 'Done';
}

function phaseOf(node: KubeObject, pool: KubeObject, updating: boolean, updated: boolean): NodePhase {
  if (updating && isDraining(node, updating)) return 'Draining';
  if (updating) {
    const state = annotation(node, MCD_STATE);
    if (state === 'Rebooting') return 'Rebooting';
    return state === 'Done' ? 'Updated' : 'Updating';
  }
  if (updated) return 'Updated';
  return specOf(pool).paused === true ? 'Paused' : 'Pending';
}

const PHASE_ASSESSMENT: Record<NodePhase, [NodeAssessment, string]> = {
  Paused: ['Excluded', '-'],
  Pending: ['Outdated', '?'],
  Draining: ['Progressing', '+10m'],
  Updating: ['Progressing', '+5m'],
  Rebooting: ['Progressing', '+5m'],
  Updated: ['Completed', '-'],
  Unknown: ['Unknown', '?'],
};

/** What {@link assessNodes} judges nodes against. */
export interface NodeAssessmentContext {
  /** MachineConfigs by name (a node's version is its MachineConfig's release-image-version annotation). */
  machineConfigs: Map<string, KubeObject>;
  /** The newest ClusterVersion history entry's version. */
  targetVersion: string | undefined;
  /** Evaluation time (epoch ms): tells a briefly NotReady node from a seriously unavailable one. */
  now: number;
  /**
   * A multi-architecture migration is in progress (same version, new release image, ClusterVersion Progressing):
   * a node at the target version is updated only once it runs its pool's current config.
   */
  multiArchMigrationInProgress: boolean;
}

/** Assesses the nodes of one pool. */
export function assessNodes(
  pool: KubeObject,
  nodes: KubeObject[],
  context: NodeAssessmentContext,
): { nodes: AssessedNode[]; insights: RawInsight[] } {
  const { machineConfigs, targetVersion, now, multiArchMigrationInProgress } = context;
  const scope = pool.metadata.name === 'master' ? 'ControlPlane' : 'WorkerPool';
  const poolConfig = (specOf(pool).configuration as { name?: string } | undefined)?.name;
  const insights: RawInsight[] = [];
  const out: AssessedNode[] = [];
  for (const node of nodes) {
    const name = node.metadata.name;
    const desiredConfig = annotation(node, DESIRED_CONFIG);
    const currentVersion = mcVersion(machineConfigs, annotation(node, CURRENT_CONFIG));
    const desiredVersion = mcVersion(machineConfigs, desiredConfig);
    const problems: BadCondition[] = [];
    const unavailable = isUnavailable(node, pool, problems);
    const state = annotation(node, MCD_STATE);
    const degraded = !!desiredConfig && (state === 'Degraded' || state === 'Unreconcilable');
    const annotationMatched = annotation(node, CURRENT_CONFIG) === desiredConfig;
    const desiredIsPoolConfig = desiredConfig === poolConfig;
    // The version stays the same through a multi-arch migration, so the config annotations must tell.
    const updated =
      currentVersion !== undefined &&
      targetVersion !== undefined &&
      currentVersion === targetVersion &&
      (!multiArchMigrationInProgress || desiredConfig === undefined || (annotationMatched && desiredIsPoolConfig));
    const updating =
      !updated &&
      currentVersion !== undefined &&
      desiredVersion !== undefined &&
      desiredVersion === targetVersion &&
      !annotationMatched &&
      desiredIsPoolConfig;
    const phase = phaseOf(node, pool, updating, updated);
    let [assessment, estimate] = PHASE_ASSESSMENT[phase];
    let message = '';
    if (unavailable && !updating) {
      assessment = 'Unavailable';
      message = problems.map((p) => p.reason).join(' | ');
      estimate = updated ? '-' : '?';
    }
    const reason = annotation(node, MCD_REASON) ?? '';
    if (degraded) {
      assessment = 'Degraded';
      message = reason;
      estimate = updated ? '-' : '?';
    }
    const subject = { group: '', kind: 'Node' as const, name };
    if (seriouslyUnavailable(problems, now) && !updating) {
      const since = problems.map((p) => p.since).filter((t): t is number => t !== undefined && t > 0);
      insights.push({
        key: 'node-unavailable',
        startedAt: since.length ? Math.min(...since) : undefined,
        scope,
        subject,
        level: LEVEL.warning,
        impact: 'Update Speed',
        summary: unavailable ? unavailableMessage(problems, name) : '',
        description: unavailable ? unavailableDescription(problems) : '',
        reference: MCO_DOC,
      });
    }
    if (degraded) {
      insights.push({
        key: 'node-degraded',
        scope,
        subject,
        level: LEVEL.error,
        impact: 'Update Stalled',
        summary: `Node ${name} is degraded`,
        description: reason,
        reference: MCO_DOC,
      });
    }
    out.push({
      name,
      assessment,
      phase,
      version: currentVersion ?? '',
      estimate,
      message: name.length >= 8 ? message.split(name).join('<node>') : message,
      isUnavailable: unavailable,
      isDegraded: degraded,
      isUpdating: updating,
      isUpdated: updated,
    });
  }
  out.sort(
    (a, b) =>
      ASSESSMENT_ORDER.indexOf(a.assessment) - ASSESSMENT_ORDER.indexOf(b.assessment) ||
      PHASE_ORDER.indexOf(a.phase) - PHASE_ORDER.indexOf(b.phase) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return { nodes: out, insights };
}

/** Summarizes a pool from its assessed nodes; emits the "paused pool" insight when outdated nodes are held back. */
export function assessPool(pool: KubeObject, nodes: AssessedNode[]): { pool: AssessedPool; insights: RawInsight[] } {
  const counts = {
    total: nodes.length,
    available: 0,
    progressing: 0,
    outdated: 0,
    draining: 0,
    excluded: 0,
    degraded: 0,
    updated: 0,
  };
  let pending = 0;
  for (const node of nodes) {
    if (!node.isUnavailable) counts.available++;
    if (node.isDegraded) counts.degraded++;
    if (node.phase === 'Updated') counts.updated++;
    else if (node.phase !== 'Unknown') counts.outdated++;
    if (node.phase === 'Paused') counts.excluded++;
    if (node.phase === 'Pending') pending++;
    if (node.phase === 'Draining') counts.draining++;
    if ((node.phase === 'Draining' || node.phase === 'Updating' || node.phase === 'Rebooting') && !node.isDegraded)
      counts.progressing++;
  }
  let assessment: PoolAssessment;
  if (nodes.length === 0) assessment = 'Empty';
  else if (counts.updated === nodes.length) assessment = 'Completed';
  else if (pending === nodes.length) assessment = 'Pending';
  else if (counts.degraded > 0) assessment = 'Degraded';
  else if (counts.excluded > 0) assessment = 'Excluded';
  else assessment = 'Progressing';

  const insights: RawInsight[] = [];
  const name = pool.metadata.name;
  if (counts.excluded > 0 && specOf(pool).paused === true) {
    insights.push({
      key: 'pool-paused',
      scope: 'WorkerPool',
      level: LEVEL.warning,
      impact: 'Update Stalled',
      subject: { group: MC, kind: 'MachineConfigPool', name },
      summary: `Outdated nodes in a paused pool '${name}' will not be updated`,
      description:
        'Pool is paused, which stops all changes to the nodes in the pool, including updates. The nodes will not be updated until the pool is unpaused by the administrator.',
      reference: PAUSED_DOC,
    });
  }
  const completionPercent = nodes.length === 0 ? 100 : (counts.updated / nodes.length) * 100;
  return { pool: { name, assessment, completionPercent, counts, nodes }, insights };
}
