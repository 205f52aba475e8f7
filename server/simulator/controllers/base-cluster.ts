import type { KubeObject } from '@/lib/k8s/types';
import type { ScenarioContext } from '../types';
import { installBaseCrds } from '../crds';
import { clusterOperatorNames } from '../objects/cluster-operators';
import { buildClusterVersion, type HistoryEntry } from '../objects/cluster-version';
import { buildFeatureGate } from '../objects/feature-gate';
import { templateHash } from '../objects/ids';
import { randomSuffix, randomUuid } from '../random';
import { buildNode, type NodeRole } from '../objects/nodes';
import { renderedConfigName } from '../objects/machine-config-pools';
import {
  CATALOGD_DEPLOYMENT,
  CATALOGD_NAMESPACE,
  OPERATOR_CONTROLLER_DEPLOYMENT,
  OPERATOR_CONTROLLER_NAMESPACE,
  buildCatalogdService,
  buildOlmDeployment,
  buildOlmPdb,
  runsOlmV1,
  type StrategyInput,
} from '../objects/olm';
import { buildPod, ownerRef, podStatus } from '../objects/pods';
import { buildInfrastructure, buildNamespace } from '../objects/platform';
import { minorOf, releaseImage, stableChannel } from '../objects/releases';
import { HOUR, SECOND } from '../objects/time';
import { createWithStatus } from '../objects/write';
import { CatalogdController } from './catalogd';
import { ClusterOlmOperator } from './cluster-olm-operator';
import { ClusterOperatorFleet } from './cluster-operators';
import { CVO_CONTAINER, CVO_NAMESPACE, SimulatedClusterVersionOperator } from './cluster-version-operator';
import { DeploymentController } from './deployment-controller';
import { FeatureGateWriter, type FeatureGateWriterMode } from './feature-gate-writer';
import { klogLine } from './klog';
import { MachineConfigController } from './machine-config';
import { OvnkubeController } from './ovnkube';

/** Label selector of the cluster-version operator pod. */
export const CVO_POD_SELECTOR = 'k8s-app=cluster-version-operator';

/** Options of an OLMv1 Deployment in the base cluster. */
export interface OlmDeploymentOptions {
  replicas: number;
  pdb: { minAvailable?: number; maxUnavailable?: number };
  strategy?: StrategyInput;
}

/** What every scenario cluster starts from. */
export interface BaseClusterOptions {
  /** Version the cluster runs (history[0] must be its Completed entry). */
  version: string;
  /** ClusterVersion history, newest first. */
  history: HistoryEntry[];
  /** ClusterVersion CRD release to install (default: the running minor). */
  crdRelease?: string;
  /** HyperShift hosted cluster: External control plane, no master nodes, no CVO pod in the cluster. */
  hosted?: boolean;
  workers?: number;
  featureGateMode?: FeatureGateWriterMode;
  /** FeatureGate spec.featureSet; TechPreviewNoUpgrade brings OLMv1 to 4.14–4.17. */
  featureSet?: string;
  /** OLMv1 options, used only where the release runs OLMv1 (see runsOlmV1). */
  catalogd?: OlmDeploymentOptions & {
    nonLeaderServes?: boolean;
    readyAfterMs?: (templateHash: string) => number;
    /** Preference order of control-plane nodes for catalogd pods. */
    nodeOrder?: (nodes: string[]) => string[];
  };
  operatorController?: OlmDeploymentOptions;
  /** Extra namespaces the scenario needs. */
  namespaces?: string[];
}

/** Handles on the objects and controllers of a base cluster. */
export interface BaseCluster {
  context: ScenarioContext;
  nodes: Record<NodeRole, string[]>;
  fleet: ClusterOperatorFleet;
  cvo: SimulatedClusterVersionOperator;
  featureGates: FeatureGateWriter;
  deployments: DeploymentController;
  /** catalogd and cluster-olm-operator, where the release runs OLMv1. */
  catalogd?: CatalogdController;
  olm?: ClusterOlmOperator;
  mco: MachineConfigController;
  ovnkube: OvnkubeController;
  /** Name of the CVO pod in openshift-cluster-version (undefined on hosted clusters). */
  cvoPod?: string;
  /** Scale behind a PDB, for eviction checks. */
  expectedFor: (pdb: KubeObject) => number;
}

const PLATFORM_NAMESPACES = [
  'default',
  'kube-system',
  'openshift-config',
  'openshift-config-managed',
  'openshift-cluster-version',
  'openshift-etcd',
  'openshift-kube-apiserver',
  'openshift-machine-config-operator',
  'openshift-ovn-kubernetes',
  'openshift-monitoring',
  'openshift-ingress',
  'openshift-dns',
  'openshift-cluster-node-tuning-operator',
  'openshift-marketplace',
  'openshift-authentication',
];
const OLM_V1_NAMESPACES = ['openshift-catalogd', 'openshift-operator-controller', 'openshift-cluster-olm-operator'];

/**
 * Builds the common realistic base: CRDs, namespaces, Infrastructure, nodes, ClusterVersion with its CVO, the
 * ClusterOperators, FeatureGate, MachineConfigPools, the CVO pod with a log, OLMv1 Deployments with PDBs and
 * catalogd where the release runs OLMv1, and ovnkube-node pods with metrics. Controllers are started; scenarios add
 * their story on top.
 */
export function installBaseCluster(context: ScenarioContext, options: BaseClusterOptions): BaseCluster {
  const now = context.clock.now();
  const hosted = options.hosted ?? false;
  const version = options.version;
  const featureSet = options.featureSet ?? '';
  const olmV1 = runsOlmV1(version, featureSet);
  const clusterVersionRelease = options.crdRelease ?? minorOf(version);
  installBaseCrds(context.as('cluster-version-operator'), { clusterVersionRelease, olmV1 });

  for (const name of [...PLATFORM_NAMESPACES, ...(olmV1 ? OLM_V1_NAMESPACES : []), ...(options.namespaces ?? [])]) {
    createWithStatus(context.as('cluster-version-operator'), 'namespaces', buildNamespace(name));
  }
  const infraName = `ci-ln-${randomSuffix(context.random, 7)}-${randomSuffix(context.random, 5)}`;
  createWithStatus(
    context.as('cluster-version-operator'),
    'infrastructures',
    buildInfrastructure(infraName, hosted ? 'External' : 'HighlyAvailable'),
  );

  const nodes: Record<NodeRole, string[]> = { master: [], worker: [] };
  const created = now - 30 * 24 * HOUR;
  for (const role of ['master', 'worker'] as NodeRole[]) {
    const count = role === 'master' ? (hosted ? 0 : 3) : (options.workers ?? 3);
    for (let index = 0; index < count; index++) {
      const node = buildNode({
        role,
        index,
        version,
        renderedConfig: renderedConfigName(role, version),
        createdMs: created,
        hosted,
      });
      createWithStatus(context.as('kubelet'), 'nodes', node);
      nodes[role].push(node.metadata.name);
    }
  }

  const clusterID = randomUuid(context.random);
  const cv = context
    .as('cluster-version-operator')
    .create(
      'clusterversions',
      buildClusterVersion({ clusterID, channel: stableChannel(version), desiredVersion: version }),
    );
  const fleet = new ClusterOperatorFleet(context, clusterOperatorNames(version, hosted, featureSet));
  fleet.createAll(version, now - 2 * HOUR, cv.metadata.uid);

  let cvoPod: string | undefined;
  if (!hosted) {
    cvoPod = createCvoPod(context, nodes.master[0], version);
  }
  const cvo = new SimulatedClusterVersionOperator(context, fleet, cvoPod ? { name: cvoPod } : undefined, {
    version,
    history: options.history,
    generation: cv.metadata.generation ?? 1,
  });
  cvo.start();

  context.as('cluster-config-operator').create('featuregates', buildFeatureGate(featureSet));
  const featureGates = new FeatureGateWriter(
    context,
    options.featureGateMode ?? (hosted ? 'hypershift-keep' : 'append'),
    hosted,
  );
  featureGates.start();

  const mco = new MachineConfigController(context, nodes, fleet);
  if (!hosted) mco.createPools(version);

  const deployments = new DeploymentController(context);
  const controlPlane = hosted ? nodes.worker : nodes.master;
  const olm = olmV1 ? installOlmV1(context, { version, controlPlane, deployments, fleet, options }) : undefined;
  deployments.start();
  olm?.operator.start();

  const ovnkube = new OvnkubeController(context, version);
  ovnkube.createPods([...nodes.master, ...nodes.worker]);
  ovnkube.start();

  const expectedFor = (pdb: KubeObject) => {
    for (const [namespace, name] of [
      [CATALOGD_NAMESPACE, CATALOGD_DEPLOYMENT],
      [OPERATOR_CONTROLLER_NAMESPACE, OPERATOR_CONTROLLER_DEPLOYMENT],
    ]) {
      if (pdb.metadata.namespace === namespace && pdb.metadata.name === name) {
        return (context.client.get('deployments', name, namespace)?.spec as { replicas?: number })?.replicas ?? 1;
      }
    }
    const deployment = context.client.get('deployments', pdb.metadata.name, pdb.metadata.namespace);
    return (deployment?.spec as { replicas?: number } | undefined)?.replicas ?? 1;
  };

  return {
    context,
    nodes,
    fleet,
    cvo,
    featureGates,
    deployments,
    catalogd: olm?.catalogd,
    olm: olm?.operator,
    mco,
    ovnkube,
    cvoPod,
    expectedFor,
  };
}

/**
 * OLMv1 as cluster-olm-operator installs it: the catalogd and operator-controller Deployments with their PDBs,
 * catalogd's Service, ClusterCatalogs and Lease, and the operator that reports them on the `olm` ClusterOperator
 * (started by the caller once the deployment controller runs).
 */
function installOlmV1(
  context: ScenarioContext,
  input: {
    version: string;
    controlPlane: string[];
    deployments: DeploymentController;
    fleet: ClusterOperatorFleet;
    options: BaseClusterOptions;
  },
): { catalogd: CatalogdController; operator: ClusterOlmOperator } {
  const { version, controlPlane, deployments, fleet, options } = input;
  const catalogd = new CatalogdController(context, { nonLeaderServes: options.catalogd?.nonLeaderServes });
  const catalogdOptions: NonNullable<BaseClusterOptions['catalogd']> = options.catalogd ?? {
    replicas: 1,
    pdb: { minAvailable: 1 },
  };
  const controllerOptions = options.operatorController ?? { replicas: 1, pdb: { minAvailable: 1 } };
  const writer = context.as('cluster-olm-operator');
  const manifests = {
    catalogd: buildOlmDeployment('catalogd', catalogdOptions.replicas, version, catalogdOptions.strategy),
    'operator-controller': buildOlmDeployment(
      'operator-controller',
      controllerOptions.replicas,
      version,
      controllerOptions.strategy,
    ),
  };
  createWithStatus(writer, 'deployments', manifests.catalogd);
  createWithStatus(writer, 'poddisruptionbudgets', buildOlmPdb('catalogd', catalogdOptions.pdb));
  createWithStatus(writer, 'services', buildCatalogdService());
  createWithStatus(writer, 'deployments', manifests['operator-controller']);
  createWithStatus(writer, 'poddisruptionbudgets', buildOlmPdb('operator-controller', controllerOptions.pdb));
  catalogd.start();
  deployments.manage({
    namespace: CATALOGD_NAMESPACE,
    name: CATALOGD_DEPLOYMENT,
    eligibleNodes: () => (catalogdOptions.nodeOrder ? catalogdOptions.nodeOrder(controlPlane) : controlPlane),
    readyAfterMs: catalogdOptions.readyAfterMs ?? (() => 45 * SECOND),
    onPodReady: (pod) => catalogd.podReady(pod),
    onPodGone: (pod) => catalogd.podGone(pod),
  });
  deployments.manage({
    namespace: OPERATOR_CONTROLLER_NAMESPACE,
    name: OPERATOR_CONTROLLER_DEPLOYMENT,
    eligibleNodes: () => controlPlane,
    readyAfterMs: () => 40 * SECOND,
  });
  return { catalogd, operator: new ClusterOlmOperator(context, fleet, manifests) };
}

/** Creates the CVO pod (`cluster-version-operator-<hash>-<suffix>`) with its startup log. */
function createCvoPod(context: ScenarioContext, node: string, version: string): string {
  const now = context.clock.now();
  const hash = templateHash(context.random);
  const name = `cluster-version-operator-${hash}-${randomSuffix(context.random)}`;
  const pod = buildPod({
    name,
    namespace: CVO_NAMESPACE,
    nodeName: node,
    labels: { 'k8s-app': 'cluster-version-operator', 'pod-template-hash': hash },
    containers: [
      {
        name: CVO_CONTAINER,
        image: releaseImage(version),
        args: [
          'start',
          `--release-image=${releaseImage(version)}`,
          '--enable-auto-update=false',
          '--listen=0.0.0.0:9099',
          '--v=2',
        ],
      },
    ],
    ownerReferences: [ownerRef('ReplicaSet', `cluster-version-operator-${hash}`, `cvo-rs-${hash}`)],
    hostNetwork: true,
    priorityClassName: 'system-cluster-critical',
    nodeSelector: { 'node-role.kubernetes.io/master': '' },
    terminationGracePeriodSeconds: 130,
  });
  const started = now - 2 * HOUR;
  pod.status = podStatus(pod, 'Ready', {
    scheduledMs: started,
    startedMs: started + 3 * SECOND,
    readyMs: started + 5 * SECOND,
    podIP: '10.0.17.12',
    hostIP: '10.0.17.12',
  });
  createWithStatus(context.as('kubelet'), 'pods', pod);
  const log = (offset: number, source: string, message: string) =>
    context.logs.append(
      CVO_NAMESPACE,
      name,
      CVO_CONTAINER,
      klogLine('I', started + offset, source, message, offset % 997),
    );
  log(0, 'start.go:23', `ClusterVersionOperator ${version}`);
  log(40, 'leaderelection.go:250', 'attempting to acquire leader lease openshift-cluster-version/version...');
  log(1200, 'leaderelection.go:260', 'successfully acquired lease openshift-cluster-version/version');
  log(1500, 'cvo.go:406', 'Starting ClusterVersionOperator with minimum reconcile period 3m47.3s');
  return name;
}
