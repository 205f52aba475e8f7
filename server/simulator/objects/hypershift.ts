import type { Condition, KubeObject } from '@/lib/k8s/types';
import { dump } from 'js-yaml';
import type { HcpWorkload } from './hcp-workloads';
import { componentImage, kubeletVersion } from './releases';
import { iso } from './time';

/** Namespace HostedClusters and NodePools live in. */
export const HOSTED_CLUSTERS_NAMESPACE = 'clusters';
/** Namespace of the HyperShift operator. */
export const HYPERSHIFT_NAMESPACE = 'hypershift';
/** ConfigMap the featuregate-generator Job writes the rendered FeatureGate to (fixtures: featuregate-generator/job.yaml). */
export const FEATURE_GATE_CONFIGMAP = 'feature-gate';
/** Key of the rendered FeatureGate YAML in that ConfigMap. */
export const FEATURE_GATE_KEY = 'feature-gate.yaml';

/** `clusters` + `name` → `clusters-name`: the hosted control-plane namespace. */
export function hcpNamespace(name: string, namespace = HOSTED_CLUSTERS_NAMESPACE): string {
  return `${namespace}-${name}`;
}

/** The release pull spec by tag, as HostedCluster and NodePool specs carry it. */
export function releaseTagImage(version: string): string {
  return `quay.io/openshift-release-dev/ocp-release:${version}-x86_64`;
}

/** `quay.io/...:4.14.38-x86_64` → `4.14.38`. */
export function versionOfTagImage(image: string | undefined): string | undefined {
  return image ? /:(\d+\.\d+\.\d+[^-]*)-/.exec(image)?.[1] : undefined;
}

/** Inputs of a HostedCluster. */
export interface HostedClusterInput {
  name: string;
  version: string;
  clusterID: string;
  infraID: string;
  region: string;
  createdMs: number;
}

function awsRoles(account: string, name: string): Record<string, string> {
  const arn = (role: string) => `arn:aws:iam::${account}:role/${name}-${role}`;
  return {
    controlPlaneOperatorARN: arn('control-plane-operator'),
    imageRegistryARN: arn('openshift-image-registry'),
    ingressARN: arn('openshift-ingress'),
    kubeCloudControllerARN: arn('cloud-controller'),
    networkARN: arn('cloud-network-config-controller'),
    nodePoolManagementARN: arn('node-pool'),
    storageARN: arn('aws-ebs-csi-driver-controller'),
  };
}

const SERVICES = [
  { service: 'APIServer', servicePublishingStrategy: { type: 'LoadBalancer' } },
  { service: 'OAuthServer', servicePublishingStrategy: { type: 'Route' } },
  { service: 'Konnectivity', servicePublishingStrategy: { type: 'Route' } },
  { service: 'Ignition', servicePublishingStrategy: { type: 'Route' } },
];

const NETWORKING = {
  clusterNetwork: [{ cidr: '10.132.0.0/14' }],
  serviceNetwork: [{ cidr: '172.31.0.0/16' }],
  machineNetwork: [{ cidr: '10.0.0.0/16' }],
  networkType: 'OVNKubernetes',
};

/** A HostedCluster on AWS (spec; status is written by the simulated hypershift-operator). */
export function buildHostedCluster(input: HostedClusterInput): KubeObject {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: {
      name: input.name,
      namespace: HOSTED_CLUSTERS_NAMESPACE,
      finalizers: ['hypershift.openshift.io/finalizer'],
      labels: { 'hypershift.openshift.io/auto-created-for-infra': input.infraID },
      creationTimestamp: iso(input.createdMs),
    },
    spec: {
      release: { image: releaseTagImage(input.version) },
      clusterID: input.clusterID,
      infraID: input.infraID,
      controllerAvailabilityPolicy: 'SingleReplica',
      infrastructureAvailabilityPolicy: 'SingleReplica',
      dns: { baseDomain: 'hcp.example.com' },
      etcd: {
        managementType: 'Managed',
        managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } },
      },
      issuerURL: `https://${input.infraID}-oidc.s3.${input.region}.amazonaws.com/${input.infraID}`,
      networking: NETWORKING,
      platform: {
        type: 'AWS',
        aws: { region: input.region, rolesRef: awsRoles('820196288204', input.infraID), endpointAccess: 'Public' },
      },
      pullSecret: { name: `${input.name}-pull-secret` },
      sshKey: { name: `${input.name}-ssh-key` },
      services: SERVICES,
    },
  };
}

/** The HostedControlPlane the hypershift-operator creates in the HCP namespace. */
export function buildHostedControlPlane(input: HostedClusterInput): KubeObject {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedControlPlane',
    metadata: {
      name: input.name,
      namespace: hcpNamespace(input.name),
      finalizers: ['hypershift.openshift.io/finalizer'],
      annotations: { 'hypershift.openshift.io/cluster': `${HOSTED_CLUSTERS_NAMESPACE}/${input.name}` },
    },
    spec: {
      releaseImage: releaseTagImage(input.version),
      clusterID: input.clusterID,
      infraID: input.infraID,
      controllerAvailabilityPolicy: 'SingleReplica',
      dns: { baseDomain: 'hcp.example.com' },
      etcd: {
        managementType: 'Managed',
        managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } },
      },
      issuerURL: `https://${input.infraID}-oidc.s3.${input.region}.amazonaws.com/${input.infraID}`,
      networking: NETWORKING,
      platform: {
        type: 'AWS',
        aws: { region: input.region, rolesRef: awsRoles('820196288204', input.infraID), endpointAccess: 'Public' },
      },
      pullSecret: { name: 'pull-secret' },
      sshKey: { name: 'ssh-key' },
      services: SERVICES,
    },
  };
}

/** Inputs of a NodePool. */
export interface NodePoolInput {
  name: string;
  clusterName: string;
  version: string;
  replicas: number;
  subnet: string;
}

/** A NodePool with Replace upgrades (rolling, maxSurge 1, maxUnavailable 0), as `hcp create cluster aws` makes. */
export function buildNodePool(input: NodePoolInput): KubeObject {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: {
      name: input.name,
      namespace: HOSTED_CLUSTERS_NAMESPACE,
      finalizers: ['hypershift.openshift.io/finalizer'],
    },
    spec: {
      clusterName: input.clusterName,
      replicas: input.replicas,
      management: {
        autoRepair: false,
        upgradeType: 'Replace',
        replace: { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
      platform: {
        type: 'AWS',
        aws: { instanceType: 'm5.xlarge', subnet: { id: input.subnet }, rootVolume: { size: 120, type: 'gp3' } },
      },
      release: { image: releaseTagImage(input.version) },
    },
  };
}

/** Nodes of a NodePool by version, as status.nodesInfo.nodeVersions summarises them. */
export function nodeVersions(nodes: readonly { version: string; ready: boolean }[]): Record<string, unknown>[] {
  const byVersion = new Map<string, { ready: number; unready: number }>();
  for (const node of nodes) {
    const entry = byVersion.get(node.version) ?? { ready: 0, unready: 0 };
    if (node.ready) entry.ready++;
    else entry.unready++;
    byVersion.set(node.version, entry);
  }
  return [...byVersion].map(([version, counts]) => ({
    ocpVersion: version,
    kubeletVersion: kubeletVersion(version),
    readyNodeCount: counts.ready,
    unreadyNodeCount: counts.unready,
  }));
}

/** A condition as HyperShift writes them (observedGeneration set). */
export function hsCondition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  atMs: number,
  generation = 1,
): Condition {
  return { type, status, reason, message, lastTransitionTime: iso(atMs), observedGeneration: generation } as Condition;
}

/** The steady NodePool conditions (nodepool-acmconsole-hosted-cluster1-aws-4.15.10.yaml). */
export function healthyNodePoolConditions(version: string, atMs: number): Condition[] {
  return [
    hsCondition('AutoscalingEnabled', 'False', 'AsExpected', '', atMs),
    hsCondition('UpdateManagementEnabled', 'True', 'AsExpected', '', atMs),
    hsCondition('ValidReleaseImage', 'True', 'AsExpected', `Using release image: ${releaseTagImage(version)}`, atMs),
    hsCondition('ValidPlatformImage', 'True', 'AsExpected', 'Bootstrap AMI is "ami-0b9d8a2c1e4f5a6b7"', atMs),
    hsCondition('ValidGeneratedPayload', 'True', 'AsExpected', 'Payload generated successfully', atMs),
    hsCondition('ReachedIgnitionEndpoint', 'True', 'AsExpected', '', atMs),
    hsCondition('ValidTuningConfig', 'True', 'AsExpected', '', atMs),
    hsCondition('ReconciliationActive', 'True', 'ReconciliationActive', 'Reconciliation active on resource', atMs),
    hsCondition('AllMachinesReady', 'True', 'AsExpected', 'All is well', atMs),
    hsCondition('AllNodesHealthy', 'True', 'AsExpected', 'All is well', atMs),
    hsCondition('AutorepairEnabled', 'False', 'AsExpected', '', atMs),
    hsCondition('ValidMachineConfig', 'True', 'AsExpected', '', atMs),
    hsCondition('SupportedVersionSkew', 'True', 'AsExpected', 'Release image version is valid', atMs),
    hsCondition('UpdatingVersion', 'False', 'AsExpected', '', atMs),
    hsCondition('UpdatingConfig', 'False', 'AsExpected', '', atMs),
    hsCondition('Ready', 'True', 'AsExpected', '', atMs),
  ];
}

/** A ControlPlaneComponent (status written by the control-plane operator). */
export function buildControlPlaneComponent(name: string, namespace: string): KubeObject {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'ControlPlaneComponent',
    metadata: { name, namespace },
    spec: {},
  };
}

/** The Deployment of one HCP workload at `version` (status written by the deployment controller's stand-in). */
export function buildHcpDeployment(
  workload: HcpWorkload,
  namespace: string,
  version: string,
  hash: string,
): KubeObject {
  const labels = { app: workload.name, 'hypershift.openshift.io/control-plane-component': workload.name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: workload.name,
      namespace,
      labels: { ...labels, 'hypershift.openshift.io/managed-by': 'control-plane-operator' },
      annotations: { 'hypershift.openshift.io/release-image': releaseTagImage(version) },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: workload.name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      template: {
        metadata: {
          labels: { ...labels, 'hypershift.openshift.io/hosted-control-plane': namespace, 'pod-template-hash': hash },
          annotations: { 'hypershift.openshift.io/release-image': releaseTagImage(version) },
        },
        spec: {
          priorityClassName: 'hypershift-control-plane',
          containers: workload.containers.map((container) => ({
            name: container,
            image: componentImage(container === workload.containers[0] ? workload.name : container, version),
          })),
        },
      },
    },
  };
}

/** The rendered FeatureGate the featuregate-generator Job stores in the `feature-gate` ConfigMap. */
export function buildFeatureGateConfigMap(namespace: string, featureGates: Record<string, unknown>[]): KubeObject {
  const rendered = {
    apiVersion: 'config.openshift.io/v1',
    kind: 'FeatureGate',
    metadata: { name: 'cluster', annotations: { 'include.release.openshift.io/ibm-cloud-managed': 'true' } },
    spec: {},
    status: { featureGates },
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: FEATURE_GATE_CONFIGMAP, namespace },
    data: { [FEATURE_GATE_KEY]: dump(rendered, { lineWidth: -1 }) },
  };
}
