import type { Scenario, ScenarioContext } from '../types';
import { installBaseCluster } from '../controllers/base-cluster';
import { HostedControlPlaneController, type HcpHistoryEntry } from '../controllers/hosted-control-plane';
import { HyperShiftOperator } from '../controllers/hypershift-operator';
import { installHyperShiftCrds } from '../crds';
import { historyEntry } from '../objects/cluster-version';
import {
  HOSTED_CLUSTERS_NAMESPACE,
  HYPERSHIFT_NAMESPACE,
  buildHostedCluster,
  buildHostedControlPlane,
  buildNodePool,
  hcpNamespace,
  healthyNodePoolConditions,
  releaseTagImage,
} from '../objects/hypershift';
import { buildNamespace } from '../objects/platform';
import { randomSuffix, randomUuid } from '../random';
import { HOUR, MINUTE } from '../objects/time';
import { createWithStatus, mutateObject } from '../objects/write';
import { HYPERSHIFT_FROM_VERSION, HYPERSHIFT_TO_VERSION } from './hypershift-featuregate-drop';

/** Version the management cluster itself runs. */
export const MANAGEMENT_VERSION = '4.16.8';
/** The hosted cluster that goes through the FeatureGate drop (4.14.38 → 4.14.39) and stalls. */
export const HC_STALLED = 'zstream-stalled';
/** The healthy hosted cluster. */
export const HC_HEALTHY = 'healthy';
/** The hosted cluster whose NodePools roll to a new version. */
export const HC_ROLLING = 'nodepool-rolling';
/** Versions of the rolling hosted cluster: control plane already at the target, NodePools still on the previous. */
export const ROLLING_FROM_VERSION = '4.16.7';
export const ROLLING_TO_VERSION = '4.16.8';
/** Version of the healthy hosted cluster. */
export const HEALTHY_VERSION = '4.15.23';
/** When the stalled cluster's HostedCluster.spec.release moves to 4.14.39. */
export const HCP_UPDATE_REQUESTED_AT_MS = 1 * MINUTE;
/** By then the HCP operators still on 4.14.38 crash-loop and the control-plane rollout has stopped. */
export const HCP_CRASHLOOP_BY_MS = 3 * MINUTE;
/** By then the hosted CVO reports the unavailable operators (ClusterVersionSucceeding=False). */
export const HCP_STALLED_BY_MS = 9 * MINUTE;
/** ConfigMap (in `clusters`) with the KubeletConfig the rolling cluster's second NodePool starts using. */
export const ROLLING_KUBELET_CONFIG = 'kubeletconfig-max-pods';
/** When the rolling cluster's NodePools get the new release. */
export const NODEPOOL_UPDATE_AT_MS = 1 * MINUTE;

interface HostedStory {
  name: string;
  history: HcpHistoryEntry[];
  pools: { name: string; replicas: number; version: string }[];
  replaceFeatureGatesOnUpdate?: boolean;
}

function completed(version: string, startedMs: number, minutes: number): HcpHistoryEntry {
  return { version, state: 'Completed', startedMs, completedMs: startedMs + minutes * MINUTE };
}

function createHostedCluster(
  context: ScenarioContext,
  story: HostedStory,
  nodes: string[],
  operator: HyperShiftOperator,
): HostedControlPlaneController {
  const start = context.clock.now();
  const version = story.history[0].version;
  const input = {
    name: story.name,
    version,
    clusterID: randomUuid(context.random),
    infraID: `${story.name}-${randomSuffix(context.random)}`,
    region: 'us-east-1',
    createdMs: story.history[story.history.length - 1].startedMs,
  };
  const admin = context.as('hypershift-operator');
  admin.create('hostedclusters', buildHostedCluster(input));
  createWithStatus(admin, 'namespaces', buildNamespace(hcpNamespace(story.name)));
  admin.create('hostedcontrolplanes', buildHostedControlPlane(input));
  for (const [index, pool] of story.pools.entries()) {
    admin.create(
      'nodepools',
      buildNodePool({
        name: pool.name,
        clusterName: story.name,
        version: pool.version,
        replicas: pool.replicas,
        subnet: `subnet-0${index}a4e1f9c3b7d2e8f6`,
      }),
    );
    context.as('hypershift-operator').updateStatus('nodepools', {
      ...context.client.get('nodepools', pool.name, HOSTED_CLUSTERS_NAMESPACE)!,
      status: {
        conditions: healthyNodePoolConditions(pool.version, start - 2 * HOUR),
        replicas: pool.replicas,
        version: pool.version,
      },
    });
    operator.adoptNodePool(pool.name, pool.version, pool.replicas);
  }
  const controlPlane = new HostedControlPlaneController(context, {
    name: story.name,
    history: story.history,
    nodes,
    featureGateMode: 'hypershift-keep',
    replaceFeatureGatesOnUpdate: story.replaceFeatureGatesOnUpdate,
  });
  controlPlane.start();
  return controlPlane;
}

/**
 * `hypershift-management`: a 4.16 management cluster serving the real HyperShift CRDs, with three HostedClusters
 * in `clusters`, their NodePools, and a hosted control-plane namespace `clusters-<name>` each. `zstream-stalled`
 * updates 4.14.38 → 4.14.39; the incoming control-plane operator renders the FeatureGate for 4.14.39 only, so the
 * HCP operators still on 4.14.38 (cluster-network-operator, ingress-operator, cluster-storage-operator,
 * cloud-network-config-controller) crash-loop with library-go's message and the rollout stalls. `healthy` runs
 * 4.15.23. `nodepool-rolling` has its control plane on 4.16.8 and replaces its NodePools' machines from 4.16.7.
 */
export const hypershiftManagementScenario: Scenario = {
  name: 'hypershift-management',
  title: 'HyperShift management cluster with three hosted clusters',
  description:
    'A management cluster hosting three control planes: one stalls in a 4.14.38 → 4.14.39 update because its rendered ' +
    'FeatureGate dropped 4.14.38 and its HCP operators crash-loop, one is healthy, one rolls its NodePools to 4.16.8.',
  failureAtMs: HCP_CRASHLOOP_BY_MS,
  start(context) {
    const now = context.clock.now();
    const day = 24 * HOUR;
    const base = installBaseCluster(context, {
      version: MANAGEMENT_VERSION,
      history: [
        historyEntry(MANAGEMENT_VERSION, now - 30 * day, now - 30 * day + 92 * MINUTE),
        historyEntry('4.15.25', now - 90 * day, now - 90 * day + 85 * MINUTE),
      ],
      namespaces: [HYPERSHIFT_NAMESPACE, HOSTED_CLUSTERS_NAMESPACE],
    });
    installHyperShiftCrds(context.as('hypershift-operator'));
    context.as('cluster-admin').create('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: ROLLING_KUBELET_CONFIG, namespace: HOSTED_CLUSTERS_NAMESPACE },
      data: {
        config:
          'apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: max-pods\nspec:\n  kubeletConfig:\n    maxPods: 350\n',
      },
    });
    const operator = new HyperShiftOperator(context, { nodeStepMs: 3 * MINUTE });
    const nodes = base.nodes.worker;
    createHostedCluster(
      context,
      {
        name: HC_STALLED,
        history: [completed(HYPERSHIFT_FROM_VERSION, now - 12 * day, 34), completed('4.14.37', now - 41 * day, 29)],
        pools: [{ name: `${HC_STALLED}-us-east-1a`, replicas: 3, version: HYPERSHIFT_FROM_VERSION }],
        replaceFeatureGatesOnUpdate: true,
      },
      nodes,
      operator,
    );
    createHostedCluster(
      context,
      {
        name: HC_HEALTHY,
        history: [completed(HEALTHY_VERSION, now - 9 * day, 31), completed('4.15.21', now - 50 * day, 33)],
        pools: [{ name: `${HC_HEALTHY}-us-east-1a`, replicas: 2, version: HEALTHY_VERSION }],
      },
      nodes,
      operator,
    );
    createHostedCluster(
      context,
      {
        name: HC_ROLLING,
        history: [
          completed(ROLLING_TO_VERSION, now - 2 * HOUR, 27),
          completed(ROLLING_FROM_VERSION, now - 33 * day, 30),
        ],
        pools: [
          { name: `${HC_ROLLING}-us-east-1a`, replicas: 3, version: ROLLING_FROM_VERSION },
          { name: `${HC_ROLLING}-us-east-1b`, replicas: 2, version: ROLLING_FROM_VERSION },
        ],
      },
      nodes,
      operator,
    );
    operator.start();

    const admin = context.as('cluster-admin');
    context.clock.setTimeout(() => {
      mutateObject(admin, 'hostedclusters', HC_STALLED, HOSTED_CLUSTERS_NAMESPACE, (hc) => {
        (hc.spec as { release: { image: string } }).release.image = releaseTagImage(HYPERSHIFT_TO_VERSION);
        return hc;
      });
    }, HCP_UPDATE_REQUESTED_AT_MS);
    context.clock.setTimeout(() => {
      for (const suffix of ['us-east-1a', 'us-east-1b']) {
        mutateObject(admin, 'nodepools', `${HC_ROLLING}-${suffix}`, HOSTED_CLUSTERS_NAMESPACE, (pool) => {
          (pool.spec as { release: { image: string } }).release.image = releaseTagImage(ROLLING_TO_VERSION);
          // The second pool also gets a KubeletConfig: one replace rolls both the release and the config.
          if (suffix === 'us-east-1b')
            (pool.spec as { config?: { name: string }[] }).config = [{ name: ROLLING_KUBELET_CONFIG }];
          return pool;
        });
      }
    }, NODEPOOL_UPDATE_AT_MS);
  },
};
