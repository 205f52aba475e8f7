import type { KubeObject } from '@/lib/k8s/types';
import { shortHash } from './ids';
import type { NodeRole } from './nodes';

/** The rendered MachineConfig name of a pool at a release (`rendered-worker-<32 hex>`). */
export function renderedConfigName(role: NodeRole, version: string): string {
  return `rendered-${role}-${shortHash(`rendered:${role}:${version}`)}`;
}

const SOURCES: Record<NodeRole, string[]> = {
  master: [
    '00-master',
    '01-master-container-runtime',
    '01-master-kubelet',
    '97-master-generated-kubelet',
    '98-master-generated-kubelet',
    '99-master-generated-registries',
    '99-master-ssh',
  ],
  worker: [
    '00-worker',
    '01-worker-container-runtime',
    '01-worker-kubelet',
    '97-worker-generated-kubelet',
    '98-worker-generated-kubelet',
    '99-worker-generated-registries',
    '99-worker-ssh',
  ],
};

/** configuration block (spec and status) naming a rendered config and its sources. */
export function poolConfiguration(role: NodeRole, rendered: string): Record<string, unknown> {
  return {
    name: rendered,
    source: SOURCES[role].map((name) => ({
      apiVersion: 'machineconfiguration.openshift.io/v1',
      kind: 'MachineConfig',
      name,
    })),
  };
}

/** A MachineConfigPool (`master` or `worker`) without status. */
export function buildMachineConfigPool(role: NodeRole, rendered: string): KubeObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: {
      name: role,
      labels: {
        'machineconfiguration.openshift.io/mco-built-in': '',
        ...(role === 'master' ? { 'operator.machineconfiguration.openshift.io/required-for-upgrade': '' } : {}),
        [`pools.operator.machineconfiguration.openshift.io/${role}`]: '',
      },
    },
    spec: {
      configuration: poolConfiguration(role, rendered),
      machineConfigSelector: { matchLabels: { 'machineconfiguration.openshift.io/role': role } },
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${role}`]: '' } },
      paused: false,
    },
  };
}

/** Counts and state of a pool, from which its status is built. */
export interface PoolState {
  machineCount: number;
  updatedMachineCount: number;
  readyMachineCount: number;
  unavailableMachineCount: number;
  degradedMachineCount: number;
  /** Rendered config all nodes are at (status.configuration). */
  currentConfig: string;
  /** Rendered config the pool targets (spec.configuration). */
  targetConfig: string;
  observedGeneration: number;
}

/** status of a MachineConfigPool as the machine-config controller writes it. */
export function machineConfigPoolStatus(role: NodeRole, state: PoolState, since: string): Record<string, unknown> {
  const updating = state.updatedMachineCount < state.machineCount || state.currentConfig !== state.targetConfig;
  const condition = (type: string, status: boolean, message = '') => ({
    type,
    status: status ? 'True' : 'False',
    reason: '',
    message,
    lastTransitionTime: since,
  });
  return {
    conditions: [
      condition('RenderDegraded', false),
      condition('NodeDegraded', false),
      condition('Degraded', false),
      condition('Updated', !updating, updating ? '' : `All nodes are updated with MachineConfig ${state.targetConfig}`),
      condition('Updating', updating, updating ? `All nodes are updating to MachineConfig ${state.targetConfig}` : ''),
    ],
    configuration: poolConfiguration(role, state.currentConfig),
    degradedMachineCount: state.degradedMachineCount,
    machineCount: state.machineCount,
    observedGeneration: state.observedGeneration,
    readyMachineCount: state.readyMachineCount,
    unavailableMachineCount: state.unavailableMachineCount,
    updatedMachineCount: state.updatedMachineCount,
  };
}

/**
 * The rendered MachineConfig of a pool at a release. The MCO stamps the release on it
 * (`machineconfiguration.openshift.io/release-image-version`), which is how `oc adm upgrade status` tells the
 * version a node runs from its currentConfig annotation.
 */
export function buildRenderedMachineConfig(role: NodeRole, version: string): KubeObject {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: {
      name: renderedConfigName(role, version),
      annotations: {
        'machineconfiguration.openshift.io/generated-by-controller-version': shortHash(`mco:${version}`).slice(0, 40),
        'machineconfiguration.openshift.io/release-image-version': version,
      },
      ownerReferences: [
        {
          apiVersion: 'machineconfiguration.openshift.io/v1',
          kind: 'MachineConfigPool',
          name: role,
          uid: shortHash(`pool:${role}`),
          controller: true,
        },
      ],
    },
    spec: {
      config: { ignition: { version: '3.4.0' } },
      extensions: [],
      fips: false,
      kernelArguments: [],
      kernelType: 'default',
      osImageURL: `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${shortHash(`os:${version}`)}${shortHash(`os2:${version}`)}`,
    },
  };
}
