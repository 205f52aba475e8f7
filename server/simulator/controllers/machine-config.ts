import type { KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import {
  buildMachineConfigPool,
  buildRenderedMachineConfig,
  machineConfigPoolStatus,
  poolConfiguration,
  renderedConfigName,
} from '../objects/machine-config-pools';
import { nodeConditions, nodeInfo, type NodeRole } from '../objects/nodes';
import { MINUTE, SECOND, iso } from '../objects/time';
import { createWithStatus, mutateObject } from '../objects/write';
import type { ClusterOperatorFleet } from './cluster-operators';
import { drainNode, setSchedulable } from './node-drain';

const ANNOTATION = 'machineconfiguration.openshift.io/';

/** Options of a pool update. */
export interface PoolUpdateOptions {
  version: string;
  /** Virtual ms a node spends rebooting and applying the config after its drain. */
  rebootMs?: number;
  /** Scale of workloads behind PDBs (for eviction checks). */
  expectedFor: (pdb: KubeObject) => number;
  onNodeDone?: (node: string) => void;
  onPoolDone?: () => void;
}

/** The MCO's Upgradeable=False message while a pool updates (machine-config-operator pkg/operator/status.go). */
export const POOL_UPDATING_MESSAGE =
  'One or more machine config pools are updating, please see `oc get mcp` for further details';
/** The MCO's Upgradeable=False message while a pool is degraded. */
export const POOL_DEGRADED_MESSAGE =
  'One or more machine config pools are degraded, please see `oc get mcp` for further details and resolve before ' +
  'upgrading';

/**
 * The machine-config controller and daemons: MachineConfigPool status, and rolling a pool to a new rendered
 * config one node at a time (desiredConfig → Working → drain → reboot → Done), with the real node annotations.
 * As the machine-config operator, it holds the `machine-config` ClusterOperator Upgradeable=False while any pool
 * updates (reason PoolUpdating) or is degraded, and True again once none does.
 */
export class MachineConfigController {
  private readonly targets = new Map<NodeRole, string>();
  private readonly since = new Map<NodeRole, string>();

  constructor(
    private readonly context: ScenarioContext,
    private readonly nodes: Record<NodeRole, string[]>,
    private readonly fleet?: ClusterOperatorFleet,
  ) {}

  /** Creates the master and worker pools at `version` (pools without nodes are skipped). */
  createPools(version: string): void {
    for (const role of ['master', 'worker'] as NodeRole[]) {
      if (this.nodes[role].length === 0) continue;
      const rendered = renderedConfigName(role, version);
      this.ensureRenderedConfig(role, version);
      this.targets.set(role, rendered);
      this.since.set(role, iso(this.context.clock.now() - 3 * 3600 * SECOND));
      const pool = buildMachineConfigPool(role, rendered);
      pool.status = this.poolStatus(role, 1);
      createWithStatus(this.context.as('machine-config-controller'), 'machineconfigpools', pool);
    }
  }

  /** Rolls `role` nodes one by one to the rendered config of `options.version`. */
  updatePool(role: NodeRole, options: PoolUpdateOptions): void {
    const rendered = renderedConfigName(role, options.version);
    this.ensureRenderedConfig(role, options.version);
    this.targets.set(role, rendered);
    this.since.set(role, iso(this.context.clock.now()));
    mutateObject(this.context.as('machine-config-controller'), 'machineconfigpools', role, undefined, (pool) => {
      (pool.spec as Record<string, unknown>).configuration = poolConfiguration(role, rendered);
      return pool;
    });
    this.writePool(role);
    const queue = [...this.nodes[role]];
    const next = () => {
      const node = queue.shift();
      if (!node) {
        this.since.set(role, iso(this.context.clock.now()));
        this.writePool(role);
        options.onPoolDone?.();
        return;
      }
      this.updateNode(role, node, rendered, options, next);
    };
    next();
  }

  private ensureRenderedConfig(role: NodeRole, version: string): void {
    const controller = this.context.as('machine-config-controller');
    if (!controller.get('machineconfigs', renderedConfigName(role, version))) {
      controller.create('machineconfigs', buildRenderedMachineConfig(role, version));
    }
  }

  private updateNode(
    role: NodeRole,
    node: string,
    rendered: string,
    options: PoolUpdateOptions,
    done: () => void,
  ): void {
    const controller = this.context.as('machine-config-controller');
    const daemon = this.context.as('machine-config-daemon');
    this.annotate(controller, node, { desiredConfig: rendered, desiredDrain: `drain-${rendered}` });
    this.annotate(daemon, node, { state: 'Working', reason: '' });
    this.writePool(role);
    drainNode(this.context, node, {
      manager: 'machine-config-controller',
      // the CVO pod is modelled as surviving its node's reboot so its log stays in one place
      skip: (pod) => pod.metadata.labels?.['k8s-app'] === 'cluster-version-operator',
      expectedFor: options.expectedFor,
      onEvicted: (pod) => {
        if (!(pod.metadata.ownerReferences ?? []).some((ref) => ref.kind === 'ReplicaSet')) {
          this.context.clock.setTimeout(
            () => this.context.as('kubelet').delete('pods', pod.metadata.name, pod.metadata.namespace),
            5 * SECOND,
          );
        }
      },
      onDrained: () => {
        this.annotate(controller, node, { lastAppliedDrain: `drain-${rendered}` });
        this.setReady(node, false);
        this.writePool(role);
        this.context.clock.setTimeout(
          () => {
            this.setReady(node, true, options.version);
            this.annotate(daemon, node, { currentConfig: rendered, state: 'Done' });
            this.annotate(controller, node, { desiredDrain: `uncordon-${rendered}` });
            setSchedulable(this.context, node, true, 'machine-config-controller');
            this.annotate(controller, node, { lastAppliedDrain: `uncordon-${rendered}` });
            this.writePool(role);
            options.onNodeDone?.(node);
            done();
          },
          options.rebootMs ?? 3 * MINUTE,
        );
      },
    });
    this.writePool(role);
  }

  private annotate(client: ReturnType<ScenarioContext['as']>, node: string, values: Record<string, string>): void {
    mutateObject(client, 'nodes', node, undefined, (object) => {
      const annotations = { ...(object.metadata.annotations ?? {}) };
      for (const [key, value] of Object.entries(values)) annotations[`${ANNOTATION}${key}`] = value;
      object.metadata.annotations = annotations;
      return object;
    });
  }

  private setReady(node: string, ready: boolean, version?: string): void {
    const live = this.context.client.get('nodes', node);
    if (!live) return;
    const now = iso(this.context.clock.now());
    const status: Record<string, unknown> = {
      ...(live.status as Record<string, unknown>),
      conditions: nodeConditions(ready, now, now),
    };
    if (version) status.nodeInfo = nodeInfo(version);
    this.context.as('kubelet').updateStatus('nodes', { ...live, status });
  }

  /** Recomputes a pool's status from its nodes' annotations. */
  writePool(role: NodeRole): void {
    const live = this.context.client.get('machineconfigpools', role);
    if (!live) return;
    const status = this.poolStatus(role, live.metadata.generation ?? 1);
    if (JSON.stringify(status) !== JSON.stringify(live.status))
      this.context.as('machine-config-controller').updateStatus('machineconfigpools', { ...live, status });
    this.syncUpgradeable();
  }

  /** The operator's syncUpgradeableStatus: any pool Updating (or Degraded) makes the cluster not upgradeable. */
  private syncUpgradeable(): void {
    if (!this.fleet?.names.includes('machine-config')) return;
    const holds = (pool: KubeObject, type: string) =>
      ((pool.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).some(
        (c) => c.type === type && c.status === 'True',
      );
    const pools = this.context.client.list('machineconfigpools');
    const condition = pools.some((pool) => holds(pool, 'Updating'))
      ? { type: 'Upgradeable', status: 'False', reason: 'PoolUpdating', message: POOL_UPDATING_MESSAGE }
      : pools.some((pool) => holds(pool, 'Degraded'))
        ? { type: 'Upgradeable', status: 'False', reason: 'DegradedPool', message: POOL_DEGRADED_MESSAGE }
        : { type: 'Upgradeable', status: 'True', reason: 'AsExpected', message: 'All is well' };
    const live = this.context.client.get('clusteroperators', 'machine-config');
    type Cond = { type: string; status: string; reason?: string };
    const current = ((live?.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).find(
      (c) => c.type === 'Upgradeable',
    );
    if (current?.status === condition.status && current.reason === condition.reason) return;
    this.fleet.setCondition('machine-config', condition);
  }

  private poolStatus(role: NodeRole, generation: number): Record<string, unknown> {
    const target = this.targets.get(role) ?? '';
    const nodes = this.nodes[role]
      .map((name) => this.context.client.get('nodes', name))
      .filter((node): node is KubeObject => Boolean(node));
    const annotation = (node: KubeObject, key: string) => node.metadata.annotations?.[`${ANNOTATION}${key}`];
    const isReady = (node: KubeObject) =>
      ((node.status as { conditions?: { type: string; status: string }[] })?.conditions ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      );
    const updated = nodes.filter(
      (node) => annotation(node, 'currentConfig') === target && annotation(node, 'state') === 'Done',
    );
    const unavailable = nodes.filter(
      (node) =>
        annotation(node, 'state') === 'Working' ||
        !isReady(node) ||
        (node.spec as { unschedulable?: boolean }).unschedulable,
    );
    const ready = updated.filter((node) => isReady(node) && !(node.spec as { unschedulable?: boolean }).unschedulable);
    const count = this.nodes[role].length;
    const current =
      updated.length === count
        ? target
        : nodes[0]
          ? (annotation(nodes.find((n) => annotation(n, 'currentConfig') !== target) ?? nodes[0], 'currentConfig') ??
            target)
          : target;
    return machineConfigPoolStatus(
      role,
      {
        machineCount: count,
        updatedMachineCount: updated.length,
        readyMachineCount: ready.length,
        unavailableMachineCount: unavailable.length,
        degradedMachineCount: 0,
        currentConfig: current,
        targetConfig: target,
        observedGeneration: generation,
      },
      this.since.get(role) ?? iso(this.context.clock.now()),
    );
  }
}
