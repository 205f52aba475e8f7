import type { Condition, KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import { setCondition } from '../objects/conditions';
import {
  HOSTED_CLUSTERS_NAMESPACE,
  healthyNodePoolConditions,
  hcpNamespace,
  hsCondition,
  nodeVersions,
  releaseTagImage,
  versionOfTagImage,
} from '../objects/hypershift';
import { shortHash } from '../objects/ids';
import { MINUTE, SECOND } from '../objects/time';
import { mutateObject, mutateStatus } from '../objects/write';

const HO = 'hypershift-operator';

/** HCP conditions the hypershift-operator copies onto the HostedCluster unchanged. */
const BUBBLED = [
  'Available',
  'Degraded',
  'EtcdAvailable',
  'KubeAPIServerAvailable',
  'InfrastructureReady',
  'ValidHostedControlPlaneConfiguration',
  'ClusterVersionProgressing',
  'ClusterVersionAvailable',
  'ClusterVersionUpgradeable',
  'ClusterVersionReleaseAccepted',
] as const;

interface NodeState {
  version: string;
  /** Hash of the NodePool `spec.config` the machine was created with. */
  config: string;
  ready: boolean;
}

/** The config hash HyperShift tracks per NodePool (8 hex characters, like its nodePoolCurrentConfig annotation). */
export function nodePoolConfigHash(pool: KubeObject | undefined): string {
  return shortHash(JSON.stringify((pool?.spec as { config?: unknown } | undefined)?.config ?? []), 8);
}

interface PoolState {
  name: string;
  nodes: NodeState[];
}

/** Options of the simulated hypershift-operator. */
export interface HyperShiftOperatorOptions {
  /** Virtual ms between HostedCluster reconciles. */
  resyncMs?: number;
  /** Virtual ms one NodePool replace step takes (a new machine joins, or an old one is drained and removed). */
  nodeStepMs?: number;
}

/**
 * The hypershift-operator, reduced to the status a management cluster shows: it propagates
 * `HostedCluster.spec.release` to the HostedControlPlane, copies the HCP's versionStatus and conditions onto the
 * HostedCluster (inverting ClusterVersionFailing into ClusterVersionSucceeding, as upstream does), and replaces
 * NodePool machines one at a time (maxSurge 1, maxUnavailable 0) towards `NodePool.spec.release`, keeping
 * replicas, version, nodesInfo and UpdatingVersion with upstream's messages. Everything goes through the API.
 */
export class HyperShiftOperator {
  private readonly pools = new Map<string, PoolState>();

  constructor(
    private readonly context: ScenarioContext,
    private readonly options: HyperShiftOperatorOptions = {},
  ) {}

  /** Registers a NodePool's existing machines at its current version and writes its status. */
  adoptNodePool(name: string, version: string, replicas: number): void {
    const config = nodePoolConfigHash(this.context.client.get('nodepools', name, HOSTED_CLUSTERS_NAMESPACE));
    this.pools.set(name, { name, nodes: Array.from({ length: replicas }, () => ({ version, config, ready: true })) });
    this.writePool(this.pools.get(name)!, this.context.clock.now());
  }

  /** Starts the reconcile loops (and reconciles once now). */
  start(): void {
    this.reconcileClusters();
    this.context.clock.setInterval(() => this.reconcileClusters(), this.options.resyncMs ?? 15 * SECOND);
    this.context.clock.setInterval(() => this.stepNodePools(), this.options.nodeStepMs ?? 2 * MINUTE);
  }

  /** HostedCluster → HCP spec, HCP status → HostedCluster status. */
  reconcileClusters(): void {
    const now = this.context.clock.now();
    for (const hc of this.context.client.list('hostedclusters', { namespace: HOSTED_CLUSTERS_NAMESPACE })) {
      const name = hc.metadata.name;
      const namespace = hcpNamespace(name, hc.metadata.namespace);
      const image = (hc.spec as { release?: { image?: string } }).release?.image;
      let hcp = this.context.client.get('hostedcontrolplanes', name, namespace);
      if (hcp && (hcp.spec as { releaseImage?: string }).releaseImage !== image) {
        hcp = mutateObject(this.context.as(HO), 'hostedcontrolplanes', name, namespace, (object) => {
          (object.spec as Record<string, unknown>).releaseImage = image;
          return object;
        });
      }
      if (!hcp) continue;
      mutateStatus(
        this.context.as(HO),
        'hostedclusters',
        name,
        hc.metadata.namespace,
        (status: Record<string, unknown>) => this.clusterStatus(status, hc, hcp, now),
      );
    }
  }

  private clusterStatus(
    status: Record<string, unknown>,
    hc: KubeObject,
    hcp: KubeObject,
    now: number,
  ): Record<string, unknown> {
    const hcpStatus = (hcp.status ?? {}) as {
      conditions?: Condition[];
      versionStatus?: { history?: { state: string }[] };
      controlPlaneVersion?: unknown;
      controlPlaneEndpoint?: unknown;
    };
    const generation = hc.metadata.generation ?? 1;
    let conditions = (status.conditions as Condition[] | undefined) ?? [];
    const set = (condition: Condition) => {
      conditions = setCondition(conditions, { ...condition, observedGeneration: generation } as Condition, now);
    };
    const fromHcp = new Map((hcpStatus.conditions ?? []).map((condition) => [condition.type, condition]));
    for (const type of BUBBLED) {
      const condition = fromHcp.get(type);
      if (condition) set({ ...condition });
    }
    const failing = fromHcp.get('ClusterVersionFailing');
    set(
      failing?.status === 'True'
        ? hsCondition('ClusterVersionSucceeding', 'False', failing.reason ?? '', failing.message ?? '', now)
        : hsCondition('ClusterVersionSucceeding', 'True', 'AsExpected', '', now),
    );
    const partial = hcpStatus.versionStatus?.history?.[0]?.state === 'Partial';
    set(
      partial
        ? hsCondition(
            'Progressing',
            'True',
            'AsExpected',
            'HostedCluster is deploying, upgrading, or reconfiguring',
            now,
          )
        : hsCondition('Progressing', 'False', 'AsExpected', 'HostedCluster is at expected version', now),
    );
    set(hsCondition('ValidConfiguration', 'True', 'AsExpected', 'Configuration passes validation', now));
    set(
      hsCondition(
        'SupportedHostedCluster',
        'True',
        'AsExpected',
        'HostedCluster is supported by operator configuration',
        now,
      ),
    );
    set(hsCondition('ValidReleaseImage', 'True', 'AsExpected', 'Release image is valid', now));
    set(hsCondition('ValidReleaseInfo', 'True', 'AsExpected', 'All is well', now));
    set(hsCondition('IgnitionEndpointAvailable', 'True', 'AsExpected', 'Ignition server deployment is available', now));
    set(hsCondition('ReconciliationActive', 'True', 'AsExpected', 'Reconciliation active on resource', now));
    set(
      hsCondition(
        'ReconciliationSucceeded',
        'True',
        'ReconciliatonSucceeded',
        'Reconciliation completed successfully',
        now,
      ),
    );
    const name = hc.metadata.name;
    return {
      ...status,
      conditions,
      ...(hcpStatus.versionStatus ? { version: hcpStatus.versionStatus } : {}),
      ...(hcpStatus.controlPlaneVersion ? { controlPlaneVersion: hcpStatus.controlPlaneVersion } : {}),
      ...(hcpStatus.controlPlaneEndpoint ? { controlPlaneEndpoint: hcpStatus.controlPlaneEndpoint } : {}),
      kubeconfig: { name: `${name}-admin-kubeconfig` },
      kubeadminPassword: { name: `${name}-kubeadmin-password` },
      ignitionEndpoint: `ignition-server-${hc.metadata.namespace}-${name}.apps.mgmt.hcp.example.com`,
      oauthCallbackURLTemplate: `https://oauth-${hc.metadata.namespace}-${name}.apps.mgmt.hcp.example.com:443/oauthcallback/[identity-provider-name]`,
      platform: { aws: { defaultWorkerSecurityGroupID: `sg-0${name.length}c7d2e9f4a1b3c5d` } },
    };
  }

  /** One replace step per NodePool whose machines are not all at `spec.release`. */
  stepNodePools(): void {
    const now = this.context.clock.now();
    for (const pool of this.pools.values()) {
      const live = this.context.client.get('nodepools', pool.name, HOSTED_CLUSTERS_NAMESPACE);
      const target = versionOfTagImage((live?.spec as { release?: { image?: string } } | undefined)?.release?.image);
      if (!target) continue;
      const config = nodePoolConfigHash(live);
      const outdated = (node: NodeState) => node.version !== target || node.config !== config;
      const surge = pool.nodes.find((node) => !node.ready);
      if (surge) {
        surge.ready = true;
        const old = pool.nodes.findIndex(outdated);
        if (old >= 0) pool.nodes.splice(old, 1);
      } else if (pool.nodes.some(outdated)) {
        pool.nodes.push({ version: target, config, ready: false });
      }
      this.writePool(pool, now);
    }
  }

  private writePool(pool: PoolState, now: number): void {
    mutateStatus(
      this.context.as(HO),
      'nodepools',
      pool.name,
      HOSTED_CLUSTERS_NAMESPACE,
      (status: Record<string, unknown>, live) => {
        const target =
          versionOfTagImage((live.spec as { release?: { image?: string } }).release?.image) ??
          pool.nodes[0]?.version ??
          '';
        const config = nodePoolConfigHash(live);
        const updating = pool.nodes.some((node) => node.version !== target);
        const updatingConfig = pool.nodes.some((node) => node.config !== config);
        const current = (status.version as string | undefined) ?? pool.nodes[0]?.version ?? target;
        const version = updating ? current : target;
        let conditions = (status.conditions as Condition[] | undefined) ?? healthyNodePoolConditions(version, now);
        const set = (condition: Condition) => {
          conditions = setCondition(conditions, condition, now);
        };
        set(
          updating
            ? hsCondition(
                'UpdatingVersion',
                'True',
                'AsExpected',
                `Updating version in progress. Target version: ${target}`,
                now,
                live.metadata.generation ?? 1,
              )
            : hsCondition('UpdatingVersion', 'False', 'AsExpected', '', now, live.metadata.generation ?? 1),
        );
        set(
          updatingConfig
            ? hsCondition(
                'UpdatingConfig',
                'True',
                'AsExpected',
                `Updating config in progress. Target config: ${config}`,
                now,
                live.metadata.generation ?? 1,
              )
            : hsCondition('UpdatingConfig', 'False', 'AsExpected', '', now, live.metadata.generation ?? 1),
        );
        set(
          hsCondition(
            'ValidReleaseImage',
            'True',
            'AsExpected',
            `Using release image: ${releaseTagImage(target)}`,
            now,
            live.metadata.generation ?? 1,
          ),
        );
        return {
          ...status,
          replicas: pool.nodes.filter((node) => node.ready).length,
          version,
          nodesInfo: { nodeVersions: nodeVersions(pool.nodes) },
          conditions,
        };
      },
    );
  }
}
